"""localStorage works for pages opened over file:// (the recent-searches feature depends on it)."""

from __future__ import annotations

import uuid

from browser_support import file_url


def test_local_storage_survives_a_reload_on_file_urls(driver, demo_site):
    key, value = "boardarchive-test-" + uuid.uuid4().hex, "서울 " + uuid.uuid4().hex
    driver.get(file_url(demo_site.page("index.html")))
    assert driver.execute_script("return window.location.protocol") == "file:"
    driver.execute_script("window.localStorage.setItem(arguments[0], arguments[1]);", key, value)
    assert driver.execute_script("return window.localStorage.getItem(arguments[0]);", key) == value

    driver.refresh()
    assert driver.execute_script("return window.localStorage.getItem(arguments[0]);", key) == value
    # Another page of the same archive (another folder) sees the same storage.
    board_page = sorted(demo_site.root.glob("boards/*/index.html"))[0]
    driver.get(file_url(board_page))
    assert driver.execute_script("return window.localStorage.getItem(arguments[0]);", key) == value

    driver.execute_script("window.localStorage.removeItem(arguments[0]);", key)
    assert driver.execute_script("return window.localStorage.getItem(arguments[0]);", key) is None
