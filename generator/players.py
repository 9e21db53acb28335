"""The simulated players' names: the play engine implements them (``generator.play.policies``), and an
objective's ``[play]`` table names one (``generator.scoring.play_target``). Both depend on this list, so
scoring need not reach up into the play engine."""

POLICY_NAMES = ("random", "explorer", "greedy")
