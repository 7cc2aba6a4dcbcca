"""Take the README's phone screenshot of the live table (docs/phone.png).

    python tools/screenshot_live.py [--chromium /usr/bin/chromium]

A temporary game of the bundled example combat, served on loopback; Chromium at a phone's
viewport (390 x 844) taps the Security Battle Droid, then Obi-Wan.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from assistant.cards import default_library
    from assistant.game import Game
    from assistant.live.table import Table
    from assistant.live.web import create_app
    from assistant.resources import example_path

    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "phone.png")
    a = ap.parse_args()
    game = Path(tempfile.mkdtemp()) / "g.sqlite"
    Game.new(game, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="screenshot").close()
    srv = uvicorn.Server(uvicorn.Config(create_app(Table(game=game, library=default_library())), host="127.0.0.1", port=8799, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=a.chromium, args=["--no-sandbox"])
        page = b.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1.5, is_mobile=True, has_touch=True).new_page()
        page.goto("http://127.0.0.1:8799/")
        page.wait_for_selector("body[data-ready=yes]")
        page.locator('#board [data-figure="sbd"] circle').first.click()
        page.wait_for_selector('#answer tr[data-target="obi"]')
        page.locator('#answer tr[data-target="obi"]').click()
        page.wait_for_selector("#answer h3:has-text('sbd → obi')")
        page.screenshot(path=str(a.out))
        b.close()
    srv.should_exit = True
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
