"""Sweep the phone page in one language: every visible text node, after the usual taps
(initiative, a figure, a target, a verb's form, a question's answer), printed one a line so
that what is still English stands out; screenshots under bench/out/browser/.

    python bench/phone_texts.py pl /tmp/g.sqlite
"""

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent / "out" / "browser"
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n.textContent.trim(), el = n.parentElement;
    if (!t || !el || el.closest('script,style,svg title') || !el.checkVisibility()) continue;
    out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ': ' + t);
  }
  for (const el of document.querySelectorAll('option, optgroup, [aria-label], [title], [placeholder]'))
    for (const a of ['label', 'aria-label', 'title', 'placeholder'])
      if (el.getAttribute(a)) out.push(el.tagName.toLowerCase() + '@' + a + ': ' + el.getAttribute(a));
  for (const el of document.querySelectorAll('option')) out.push('option: ' + el.textContent);
  return out;
}"""


def main(lang: str, game: str) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = subprocess.Popen([sys.executable, "-m", "assistant", "serve", "--game", game, "--port", str(port), "--lang", lang],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(3)
        seen: list[str] = []
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=os.environ.get("CHROMIUM") or shutil.which("chromium"), args=["--no-sandbox"])
            page = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("body[data-ready=yes] #board .hits [data-figure]")
            page.click("#b-initiative")
            page.click("#b-init-auto")
            page.wait_for_selector("#message.ok")
            seen += page.evaluate(TEXTS)
            figs = page.eval_on_selector_all("#board .hits [data-figure]", "els => els.map(e => e.dataset.figure)")
            page.locator(f'#board .hits [data-figure="{figs[0]}"] circle').first.click()
            page.wait_for_selector("#answer tr[data-target]")
            seen += page.evaluate(TEXTS)
            page.locator("#answer tr[data-target]").first.click()
            page.wait_for_selector("#verdict")
            page.screenshot(path=str(OUT / f"phone-{lang}-verdict.png"))
            seen += page.evaluate(TEXTS)
            page.click("#why summary")
            seen += page.evaluate(TEXTS)
            page.click(".verb-chip[data-verb='game damage']")
            page.screenshot(path=str(OUT / f"phone-{lang}-form.png"), full_page=True)
            seen += page.evaluate(TEXTS)
            page.click("#verbs-box summary")
            page.select_option("#verb-select", "los")
            page.click("#verb-go")
            page.wait_for_function("document.querySelector('#verb-result') && document.querySelector('#verb-result').textContent")
            page.screenshot(path=str(OUT / f"phone-{lang}-query.png"), full_page=True)
            seen += page.evaluate(TEXTS)
            page.click("#log-box summary")
            seen += page.evaluate(TEXTS)
            page.screenshot(path=str(OUT / f"phone-{lang}-full.png"), full_page=True)
            b.close()
        for t in dict.fromkeys(seen):
            print(t)
    finally:
        srv.terminate()
        srv.wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
