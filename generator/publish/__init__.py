"""Publishing: print-and-play sheets, the board, the rules booklet and manufacturer files."""
