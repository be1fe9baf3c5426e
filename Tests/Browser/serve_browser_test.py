"""The real-browser test of `wardrobe serve` (run by `make test-browser`).

Headless Chromium, driven by Selenium, on a catalogue of the twelve real
photos in Fixtures/photos: opens the gallery, filters by a label, opens an
image, corrects its label with the keyboard in review, and then finds the
correction with `wardrobe list`. Along the way it checks that no page
scrolls sideways at 375 px and writes screenshots of the gallery, an image
page and review at 1280 and 375 px.

Usage: serve_browser_test.py WARDROBE_BINARY PHOTOS_FOLDER SCREENSHOT_FOLDER
"""
import base64
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WIDTHS = (1280, 375)


def fail(message):
    print(f"browser test: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def start_server(wardrobe, catalogue):
    server = subprocess.Popen([wardrobe, "serve", "--db", catalogue, "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not match:
        server.kill()
        fail(f"serve printed no URL: {line!r} {server.stderr.read()!r}")
    return server, match.group(1)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def set_width(driver, width):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900 if width > 500 else 812,
                            "deviceScaleFactor": 1, "mobile": width < 500})


def shoot(driver, folder, name):
    """Screenshots at both widths; at 375 px the page must not scroll sideways."""
    for width in WIDTHS:
        set_width(driver, width)
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
        # Lazy thumbnails: scroll through once so they are all in the picture.
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight); window.scrollTo(0, 0);")
        time.sleep(0.3)
        overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, f"{name} scrolls sideways by {overflow} px at {width} px")
        driver.save_screenshot(os.path.join(folder, f"{name}-{width}.png"))
    set_width(driver, 1280)
    driver.refresh()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # A small JPEG at 1280 px too, the size the README shows.
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "jpeg", "quality": 80})
    with open(os.path.join(folder, f"{name}-1280.jpg"), "wb") as out:
        out.write(base64.b64decode(shot["data"]))


def main():
    wardrobe, photos, shots = sys.argv[1:4]
    os.makedirs(shots, exist_ok=True)
    work = tempfile.mkdtemp(prefix="wardrobe-browser-")
    catalogue = os.path.join(work, "catalogue.sqlite")
    subprocess.run([wardrobe, "import", "--db", catalogue, "--quiet", photos], check=True,
                   stdout=subprocess.DEVNULL)
    server, url = start_server(wardrobe, catalogue)
    driver = None
    try:
        driver = browser()
        driver.get(url)
        check("wardrobe" in driver.title, f"gallery title is {driver.title!r}")
        cards = driver.find_elements(By.CSS_SELECTOR, "li.card")
        check(len(cards) == 12, f"gallery shows {len(cards)} images, not 12")
        shoot(driver, shots, "gallery")

        # Filter by the label of the first card, through its chip.
        label = driver.find_element(By.CSS_SELECTOR, "li.card .label").text.replace(" ✎", "")
        chip = next(c for c in driver.find_elements(By.CSS_SELECTOR, "nav.filters a.chip")
                    if c.text.startswith(label + " ("))
        expected = int(re.search(r"\((\d+)\)", chip.text).group(1))
        chip.click()
        WebDriverWait(driver, 10).until(lambda d: "label=" in d.current_url)
        labels = [e.text.replace(" ✎", "") for e in driver.find_elements(By.CSS_SELECTOR, "li.card .label")]
        check(len(labels) == expected and set(labels) == {label},
              f"filter {label}: {len(labels)} cards ({set(labels)}), chip says {expected}")

        # Open an image: its page shows the history and the top three.
        driver.find_element(By.CSS_SELECTOR, "li.card a").click()
        WebDriverWait(driver, 10).until(lambda d: "/image/" in d.current_url)
        check(len(driver.find_elements(By.CSS_SELECTOR, "tr.classification")) >= 1, "image page has no history")
        check(len(driver.find_elements(By.CSS_SELECTOR, "div.bar")) == 3, "image page has no top three")
        tensor = driver.find_element(By.CSS_SELECTOR, "img.tensor")
        check(driver.execute_script("return arguments[0].naturalWidth", tensor) == 168, "tensor picture did not load")
        shoot(driver, shots, "image")

        # Review: correct the first image with the keyboard.
        driver.get(url + "review")
        shoot(driver, shots, "review")
        image_link = driver.find_element(By.CSS_SELECTOR, ".review a[href^='/image/']").get_attribute("href")
        image_id = int(image_link.rstrip("/").split("/")[-1])
        model = driver.find_element(By.CSS_SELECTOR, ".review strong").text
        target = next(n for n in ("Bag", "Sandal", "Trouser") if n != model)
        key = next(b.get_attribute("data-key") for b in driver.find_elements(By.CSS_SELECTOR, "button[data-key]")
                   if b.text.endswith(target) and not b.text.startswith("Confirm"))
        driver.find_element(By.TAG_NAME, "body").send_keys(key)
        WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url)
        check("Saved." in driver.page_source, "review did not say the label was saved")
        shoot(driver, shots, "review-after")

        # The correction is in the catalogue at once: `wardrobe list` finds it.
        listed = subprocess.run([wardrobe, "list", "--db", catalogue, "--label", target, "--json"],
                                check=True, capture_output=True, text=True).stdout
        rows = json.loads(listed) if listed.strip().startswith("[") else [json.loads(l) for l in listed.splitlines() if l]
        row = next((r for r in rows if r["id"] == image_id), None)
        check(row is not None, f"wardrobe list --label {target} does not list image {image_id}: {listed}")
        check(row.get("label_source") == "person", f"image {image_id} is not labelled by a person: {row}")

        # Undo with its key: the image is back without a person's label.
        driver.find_element(By.TAG_NAME, "body").send_keys("u")
        WebDriverWait(driver, 10).until(lambda d: f"at={image_id}" in d.current_url)
        listed = subprocess.run([wardrobe, "list", "--db", catalogue, "--label", target, "--json"],
                                check=True, capture_output=True, text=True).stdout
        check(f'"id":{image_id},' not in listed.replace(" ", ""), "undo left the label in place")
        driver.get(url + "stats")
        check(driver.find_elements(By.CSS_SELECTOR, "svg.chart rect"), "stats has no chart")
        shoot(driver, shots, "stats")
        print(f"browser test: passed (screenshots in {shots}); corrected image {image_id} to {target} by key '{key}'")
    finally:
        if driver is not None:
            driver.quit()
        server.send_signal(signal.SIGTERM)
        try:
            status = server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            fail("serve did not stop within 15 s of SIGTERM")
    check(status == 0, f"serve exited {status} after SIGTERM: {server.stderr.read()}")


if __name__ == "__main__":
    main()
