"""A headless Chromium for browser tests (Debian's chromium and chromium-driver, driven by Selenium), or a
skip saying how to install one."""

import contextlib
import os
import shutil
import tempfile

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
HOW = "run `make sysdeps` (or `sudo apt-get install chromium chromium-driver`) and `pip install selenium`"


@contextlib.contextmanager
def headless_chromium(size: str = "1400,1000"):
    """One headless Chromium session with its own profile (skips the test when there is none)."""
    missing = [p for p in (CHROMIUM, DRIVER) if not os.access(p, os.X_OK)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium")
    if missing:
        pytest.skip(f"no headless browser ({', '.join(missing)} missing): {HOW}")
    profile = tempfile.mkdtemp(prefix="trailwright-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # with the driver's path given, Selenium Manager never downloads anything
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={size}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
