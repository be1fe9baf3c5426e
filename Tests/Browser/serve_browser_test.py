"""The real-browser test of `wardrobe serve` (run by `make test-browser`).

Headless Chromium, driven by Selenium, on a catalogue of the twelve real
photos in Fixtures/photos: opens the gallery, filters by a label, opens an
image, corrects its label with the keyboard in review, and then finds the
correction with `wardrobe list`; every review key (labels, none, confirm,
arrows, undo) in one-at-a-time and in the grid, the in-place updates (no
reload), and the same acts with JavaScript off. Then the gallery as a place
to find things: a search, a review filtered by it and by a folder,
multi-select with one undo, the larger view, and the keys on the image page. Along the way it checks that no page
scrolls sideways at 375 px, that no card cuts its label short or breaks its caption, and writes screenshots of the gallery, an image
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
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
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


def browser(script=True):
    options = webdriver.ChromeOptions()
    if not script:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
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
        # A card's label is shown whole (a person's ✎ was cut off with the end of
        # "T-shirt/top"), and its swatch and confidence stay on one line.
        clipped = driver.execute_script(
            "return Array.from(document.querySelectorAll('.card .label'))"
            ".filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent);")
        check(not clipped, f"{name} cuts card labels short at {width} px: {clipped}")
        broken = driver.execute_script(
            "return Array.from(document.querySelectorAll('.card .caption > .muted'))"
            ".filter(e => e.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(e).fontSize))"
            ".map(e => e.textContent);")
        check(not broken, f"{name} breaks card captions over two lines at {width} px: {broken}")
        driver.save_screenshot(os.path.join(folder, f"{name}-{width}.png"))
    set_width(driver, 1280)
    driver.refresh()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # A small JPEG at 1280 px too, the size the README shows.
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "jpeg", "quality": 80})
    with open(os.path.join(folder, f"{name}-1280.jpg"), "wb") as out:
        out.write(base64.b64decode(shot["data"]))


def press(driver, key):
    driver.find_element(By.TAG_NAME, "body").send_keys(key)


def main_text(driver):
    """The page's main text, read in one step (an in-place update replaces the element)."""
    return driver.execute_script("return document.querySelector('main').textContent;")


def mark_window(driver):
    driver.execute_script("window.stayedHere = true;")


def window_kept(driver):
    return driver.execute_script("return window.stayedHere === true;")


def shown_review_image(driver):
    links = driver.find_elements(By.CSS_SELECTOR, ".review a[href^='/image/']")
    return int(links[0].get_attribute("href").rstrip("/").split("/")[-1]) if links else None


def card_ids(driver):
    return [int(c.get_attribute("data-id")) for c in driver.find_elements(By.CSS_SELECTOR, "li.card")]


def focused_card(driver):
    cards = driver.find_elements(By.CSS_SELECTOR, "li.card.focused")
    return int(cards[0].get_attribute("data-id")) if len(cards) == 1 else None


def card_label(driver, image_id):
    return driver.find_element(By.CSS_SELECTOR, f'li.card[data-id="{image_id}"] .label').text


def label_source(wardrobe, catalogue, label, image_id):
    """How `wardrobe list --label LABEL` lists the image: "person", "model", or None if not at all."""
    listed = subprocess.run([wardrobe, "list", "--db", catalogue, "--label", label, "--json"],
                            check=True, capture_output=True, text=True).stdout
    rows = json.loads(listed) if listed.strip().startswith("[") else [json.loads(l) for l in listed.splitlines() if l]
    row = next((r for r in rows if r["id"] == image_id), None)
    return None if row is None else row.get("label_source")


def without_script(wardrobe, catalogue, url, target):
    """The same acts with JavaScript off: plain forms, answered by redirects."""
    driver = browser(script=False)
    try:
        driver.get(url + "review")
        image_id = shown_review_image(driver)
        next(b for b in driver.find_elements(By.CSS_SELECTOR, ".labels button") if b.text.endswith(target)).click()
        WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url)
        check("Saved." in driver.page_source, "without script, review did not say the label was saved")
        check(label_source(wardrobe, catalogue, target, image_id) == "person", "without script, review did not label")
        driver.find_element(By.CSS_SELECTOR, "form.notice button").click()
        WebDriverWait(driver, 10).until(lambda d: f"at={image_id}" in d.current_url)
        check(label_source(wardrobe, catalogue, target, image_id) is None, "without script, undo did not undo")

        driver.get(url + "review?view=grid")
        first = card_ids(driver)[0]
        form = driver.find_element(By.CSS_SELECTOR, f'li.card[data-id="{first}"] form')
        Select(form.find_element(By.TAG_NAME, "select")).select_by_value(target)
        form.find_element(By.CSS_SELECTOR, "button[value=label]").click()
        WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url)
        check(label_source(wardrobe, catalogue, target, first) == "person", "without script, the grid did not label")
        check(first not in card_ids(driver), "without script, the labelled image stayed in the grid")
        driver.find_element(By.CSS_SELECTOR, "form.notice button").click()
        WebDriverWait(driver, 10).until(lambda d: "undo=" not in d.current_url)
        # The grid's card may be one the model already calls `target`: then undo leaves the model's label.
        check(label_source(wardrobe, catalogue, target, first) != "person", "without script, grid undo did not undo")
    finally:
        driver.quit()


def listed_ids(wardrobe, catalogue, *arguments):
    """The ids `wardrobe list` gives with these filters."""
    out = subprocess.run([wardrobe, "list", "--db", catalogue, "--ids", *arguments],
                         check=True, capture_output=True, text=True).stdout
    return sorted(int(line) for line in out.split())


def find_things(driver, wardrobe, catalogue, url, photos, shots, target):
    """The gallery as a place to find things: search, a filtered review, multi-select with
    one undo, the larger view and the keys on the image page."""
    # Search: the box's text is list's --path, and the result is in the URL.
    driver.get(url)
    box = driver.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
    box.send_keys("shirt")
    box.submit()
    WebDriverWait(driver, 10).until(lambda d: "q=shirt" in d.current_url)
    expected = listed_ids(wardrobe, catalogue, "--path", "shirt")
    check(expected and sorted(card_ids(driver)) == expected,
          f"search 'shirt' shows {sorted(card_ids(driver))}, list --path shirt gives {expected}")
    shoot(driver, shots, "search")

    # Review these: review keeps the search and shows only those images.
    driver.find_element(By.CSS_SELECTOR, "a.review-these").click()
    WebDriverWait(driver, 10).until(lambda d: "/review" in d.current_url and "q=shirt" in d.current_url)
    unlabelled = listed_ids(wardrobe, catalogue, "--path", "shirt", "--uncorrected")
    shown = shown_review_image(driver)
    check(shown in unlabelled, f"filtered review shows image {shown}, not one of {unlabelled}")
    check("Only these:" in main_text(driver), "filtered review does not say what it shows")
    shoot(driver, shots, "review-filtered")
    # By the folder too: /review?folder=... (as the image page links it) and the grid.
    folder = os.path.abspath(os.path.join(photos, "shirt"))
    driver.get(url + "review?view=grid&folder=" + urllib.parse.quote(folder, safe=""))
    in_folder = listed_ids(wardrobe, catalogue, "--folder", folder, "--uncorrected")
    check(sorted(card_ids(driver)) == in_folder, f"review of {folder}: {sorted(card_ids(driver))}, not {in_folder}")

    # Multi-select: three cards ticked, one label for all, one undo (key u) for all.
    driver.get(url + "?per=200")
    picked = card_ids(driver)[:3]
    for image_id in picked:
        driver.find_element(By.CSS_SELECTOR, f'li.card[data-id="{image_id}"] input[type=checkbox]').click()
    form = driver.find_element(By.ID, "pick")
    Select(form.find_element(By.TAG_NAME, "select")).select_by_value(target)
    form.find_element(By.CSS_SELECTOR, "button[value=label]").click()
    WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url)
    check("Saved for 3 images." in main_text(driver), "the bulk act does not say it saved three images")
    for image_id in picked:
        check(label_source(wardrobe, catalogue, target, image_id) == "person", f"bulk label missed image {image_id}")
    shoot(driver, shots, "gallery-bulk")
    press(driver, "u")
    WebDriverWait(driver, 10).until(lambda d: "undo=" not in d.current_url)
    for image_id in picked:
        check(label_source(wardrobe, catalogue, target, image_id) != "person", f"bulk undo left image {image_id} labelled")

    # The larger view: a re-encoded JPEG at the side asked for, linked from the image page.
    image_id = picked[0]
    driver.get(url + f"image/{image_id}")
    link = driver.find_element(By.CSS_SELECTOR, f'a[href="/original/{image_id}?w=960"]')
    link.click()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return document.images.length === 1 && document.images[0].complete && document.images[0].naturalWidth > 0"))
    width, height = driver.execute_script("return [document.images[0].naturalWidth, document.images[0].naturalHeight]")
    check(max(width, height) > 256 and max(width, height) <= 960, f"the larger view is {width}x{height}")
    driver.save_screenshot(os.path.join(shots, "original-960.png"))

    # Keys on the image page: a label's key, then u, each in place (no reload).
    driver.get(url + f"image/{image_id}")
    key = next(b.get_attribute("data-key") for b in driver.find_elements(By.CSS_SELECTOR, ".labels button[data-key]")
               if b.text.endswith(target) and not b.text.startswith("Confirm"))
    mark_window(driver)
    press(driver, key)
    WebDriverWait(driver, 10).until(lambda d: "labelled by a person" in main_text(d))
    check(label_source(wardrobe, catalogue, target, image_id) == "person", "the image page's key did not label")
    check(window_kept(driver), "a key on the image page reloaded it")
    driver.save_screenshot(os.path.join(shots, "image-keys-1280.png"))
    press(driver, "u")
    WebDriverWait(driver, 10).until(lambda d: "labelled by a person" not in main_text(d))
    check(label_source(wardrobe, catalogue, target, image_id) != "person", "u on the image page did not undo")
    check(window_kept(driver), "u on the image page reloaded it")


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

        # Filter by the colour of the first card, through its chip: every card then has that
        # colour's swatch, drawn by the style sheet, and as many as `wardrobe list --colour`.
        driver.get(url)
        swatch = driver.find_element(By.CSS_SELECTOR, "li.card .swatch")
        colour = swatch.get_attribute("class").split("swatch-")[1]
        check(driver.execute_script("return getComputedStyle(arguments[0]).backgroundImage + "
                                    "getComputedStyle(arguments[0]).backgroundColor", swatch)
              not in ("nonergba(0, 0, 0, 0)", ""), f"the {colour} swatch is not drawn")
        next(c for c in driver.find_elements(By.CSS_SELECTOR, "nav[aria-label=Colours] a.chip")
             if c.text.strip() == colour).click()
        WebDriverWait(driver, 10).until(lambda d: "colour=" in d.current_url)
        swatches = [e.get_attribute("class") for e in driver.find_elements(By.CSS_SELECTOR, "li.card .swatch")]
        listed = subprocess.run([wardrobe, "list", "--db", catalogue, "--colour", colour, "--ids"], check=True,
                                capture_output=True, text=True).stdout.split()
        check(len(swatches) == len(listed) and set(swatches) == {"swatch swatch-" + colour},
              f"filter {colour}: {len(swatches)} cards ({set(swatches)}), list --colour gives {len(listed)}")

        # Open an image: its page shows the history, the top three and the colour.
        driver.find_element(By.CSS_SELECTOR, "li.card a").click()
        WebDriverWait(driver, 10).until(lambda d: "/image/" in d.current_url)
        check(len(driver.find_elements(By.CSS_SELECTOR, "tr.classification")) >= 1, "image page has no history")
        check(len(driver.find_elements(By.CSS_SELECTOR, "div.bar")) == 3, "image page has no top three")
        check(len(driver.find_elements(By.CSS_SELECTOR, "p.colour .swatch-" + colour)) == 1, "image page has no swatch")
        tensor = driver.find_element(By.CSS_SELECTOR, "img.tensor")
        check(driver.execute_script("return arguments[0].naturalWidth", tensor) == 168, "tensor picture did not load")
        shoot(driver, shots, "image")

        # Set the garment's colour on the page, as `wardrobe colour` does: the page says a person
        # set it, and `list --colour` and `list --json` agree; taking it back restores the measured one.
        page_id = driver.current_url.rstrip("/").split("/image/")[1].split("?")[0]
        given = "orange" if colour != "orange" else "purple"
        Select(driver.find_element(By.CSS_SELECTOR, "div.colours select[name=colour]")).select_by_value(given)
        driver.find_element(By.XPATH, "//div[@class='colours']//button[text()='Set colour']").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.colour .swatch-" + given))
        check("(set by a person)" in driver.find_element(By.CSS_SELECTOR, "p.colour").text,
              "the page does not say a person set the colour")
        check(int(page_id) in listed_ids(wardrobe, catalogue, "--colour", given),
              f"list --colour {given} does not list image {page_id}")
        rows = json.loads(subprocess.run([wardrobe, "list", "--db", catalogue, "--colour", given, "--json"], check=True,
                                         capture_output=True, text=True).stdout)
        check([r["colour_source"] for r in rows if str(r["id"]) == page_id] == ["person"],
              f"list --json does not say image {page_id}'s colour is a person's")
        driver.find_element(By.XPATH, "//div[@class='colours']//button[text()='Clear my colour']").click()
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.colour .swatch-" + colour))
        check(int(page_id) not in listed_ids(wardrobe, catalogue, "--colour", given), "clearing the colour did not take it back")

        # Its similar strip: what `wardrobe similar` lists, in order, thumbnails loaded; a card
        # opens that image's page.
        page_id = driver.current_url.rstrip("/").split("/image/")[1].split("?")[0]
        strip = driver.find_elements(By.CSS_SELECTOR, "section.similar li.card")
        similar = json.loads(subprocess.run([wardrobe, "similar", "--db", catalogue, "--limit", "8", "--json", page_id],
                                            check=True, capture_output=True, text=True).stdout)
        check([c.get_attribute("data-id") for c in strip] == [str(n["image"]) for n in similar["neighbours"]] and strip,
              f"the similar strip of image {page_id} is not what similar lists")
        first = strip[0].find_element(By.CSS_SELECTOR, "img")
        driver.execute_script("arguments[0].scrollIntoView()", first)
        WebDriverWait(driver, 10).until(lambda d: d.execute_script("return arguments[0].naturalWidth", first) > 0)
        target = strip[0].get_attribute("data-id")
        strip[0].find_element(By.CSS_SELECTOR, "a").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/image/" + target))

        # Review, one at a time: every act by its key, each updating the page in place
        # (the marker set on the window survives: no reload) and each in `wardrobe list` at once.
        driver.get(url + "review")
        shoot(driver, shots, "review")
        image_id = shown_review_image(driver)
        model = driver.find_element(By.CSS_SELECTOR, ".review strong").text
        target = next(n for n in ("Bag", "Sandal", "Trouser") if n != model)
        key = next(b.get_attribute("data-key") for b in driver.find_elements(By.CSS_SELECTOR, "button[data-key]")
                   if b.text.endswith(target) and not b.text.startswith("Confirm"))
        check(len(driver.find_elements(By.CSS_SELECTOR, ".labels button[data-key]")) == 12,
              "review has not one key per label, none and confirm")
        mark_window(driver)
        press(driver, key)
        WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url and "Saved." in d.page_source)
        check(shown_review_image(driver) != image_id, "review did not move on to the next image")
        check(window_kept(driver), "labelling in review reloaded the page")
        shoot(driver, shots, "review-after")
        check(label_source(wardrobe, catalogue, target, image_id) == "person",
              f"wardrobe list --label {target} does not list image {image_id} as labelled by a person")

        # Undo with its key: the image is back without a person's label.
        mark_window(driver)
        press(driver, "u")
        WebDriverWait(driver, 10).until(lambda d: f"at={image_id}" in d.current_url)
        check(shown_review_image(driver) == image_id, "undo did not come back to the image")
        check(window_kept(driver), "undo reloaded the page")
        check(label_source(wardrobe, catalogue, target, image_id) is None, "undo left the label in place")

        # n says none of the ten, Enter confirms the model's label; u undoes each.
        for pressed, label in (("n", "none"), (Keys.ENTER, model)):
            press(driver, pressed)
            WebDriverWait(driver, 10).until(lambda d: "undo=" in d.current_url)
            check(label_source(wardrobe, catalogue, label, image_id) == "person",
                  f"key {pressed!r} did not label image {image_id} {label}")
            press(driver, "u")
            WebDriverWait(driver, 10).until(lambda d: f"at={image_id}" in d.current_url)
            check(label_source(wardrobe, catalogue, model, image_id) == "model", f"undo after {pressed!r} failed")
        check(window_kept(driver), "acts in review reloaded the page")

        # Arrows move: right to the next image, left back.
        press(driver, Keys.ARROW_RIGHT)
        WebDriverWait(driver, 10).until(lambda d: shown_review_image(d) not in (None, image_id))
        press(driver, Keys.ARROW_LEFT)
        WebDriverWait(driver, 10).until(lambda d: shown_review_image(d) == image_id)

        # Review as a grid: arrows pick a card, a key labels it in place, u undoes.
        driver.get(url + "review?view=grid")
        shoot(driver, shots, "review-grid")
        mark_window(driver)
        check(focused_card(driver) == card_ids(driver)[0], "the grid does not start on its first card")
        press(driver, Keys.ARROW_RIGHT)
        second = card_ids(driver)[1]
        check(focused_card(driver) == second, "the right arrow did not pick the second card")
        press(driver, key)
        WebDriverWait(driver, 10).until(lambda d: card_label(d, second) == target + " ✎")
        check(focused_card(driver) == card_ids(driver)[2], "the pick did not move on after labelling")
        check(label_source(wardrobe, catalogue, target, second) == "person", f"grid did not label image {second}")
        press(driver, "u")
        WebDriverWait(driver, 10).until(lambda d: not card_label(d, second).endswith("✎"))
        # `target` differs from the review image's model label, not necessarily from this card's.
        check(label_source(wardrobe, catalogue, target, second) != "person", "grid undo left the label in place")
        check(window_kept(driver), "the grid reloaded")

        # The image page's buttons work with the mouse, in place too.
        driver.get(url + f"image/{image_id}")
        mark_window(driver)
        button = next(b for b in driver.find_elements(By.CSS_SELECTOR, ".labels button")
                      if b.text.endswith(target) and not b.text.startswith("Confirm"))
        button.click()
        WebDriverWait(driver, 10).until(lambda d: "labelled by a person" in main_text(d))
        check(window_kept(driver), "the image page reloaded")
        check(label_source(wardrobe, catalogue, target, image_id) == "person", "the image page's button did not label")
        next(b for b in driver.find_elements(By.CSS_SELECTOR, ".labels button") if b.text == "Clear my label").click()
        WebDriverWait(driver, 10).until(lambda d: "labelled by a person" not in main_text(d))

        without_script(wardrobe, catalogue, url, target)
        find_things(driver, wardrobe, catalogue, url, photos, shots, target)

        driver.get(url + "stats")
        check(driver.find_elements(By.CSS_SELECTOR, "svg.chart rect"), "stats has no chart")
        shoot(driver, shots, "stats")

        # The widest labels given by a person, on cards: shoot()'s checks see them whole.
        for name, image in (("T-shirt/top", listed_ids(wardrobe, catalogue)[0]), ("Ankle boot", listed_ids(wardrobe, catalogue)[1])):
            subprocess.run([wardrobe, "label", "--db", catalogue, "--quiet", name, str(image)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        driver.get(url + "?corrected=yes")
        check(len(driver.find_elements(By.CSS_SELECTOR, "li.card .label.person")) >= 2, "the person's labels are not on cards")
        shoot(driver, shots, "gallery-person")
        print(f"browser test: passed (screenshots in {shots}); corrected image {image_id} to {target} by key '{key}', "
              "with and without script")
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
