"""A small Chrome DevTools Protocol client over --remote-debugging-pipe
(messages are JSON, each ended by a NUL byte, on the browser's fds 3 and 4):
enough to open a page, read its network events and evaluate script in it,
with no package beyond the standard library.

    with Browser(chromium_path, profile_dir) as browser:
        page = browser.open(url)          # Network events recorded from the start
        page.evaluate("document.title")
        page.events("Network.requestWillBeSent")
"""
import fcntl, json, os, select, subprocess, time


class Browser:
    def __init__(self, binary, profile, extra_args=()):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds():  # in the child: the two ends at 3 and 4, whatever numbers they had
            a = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
             "--user-data-dir=" + profile, *extra_args, "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._events = []   # (sessionId, method, params)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)

    def send(self, method, params=None, session=None, timeout=30):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            for reply in self._read(deadline):
                if reply.get("id") == self._next_id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    return reply.get("result", {})

    def pump(self, seconds):
        """Reads events for `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._read(deadline, quiet=True)

    def _read(self, deadline, quiet=False):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            if quiet:
                return []
            raise TimeoutError("no answer from the browser")
        ready, _, _ = select.select([self._from_browser], [], [], remaining)
        if not ready:
            return []
        chunk = os.read(self._from_browser, 1 << 20)
        if not chunk:
            raise RuntimeError("the browser closed its pipe")
        self._buffer += chunk
        messages = []
        while b"\0" in self._buffer:
            raw, self._buffer = self._buffer.split(b"\0", 1)
            message = json.loads(raw)
            if "method" in message:
                self._events.append((message.get("sessionId"), message["method"], message.get("params", {})))
            messages.append(message)
        return messages

    def open(self, url, device=None):
        """A new tab on `url`; `device` = (width, height, scale, mobile) emulates a screen from the start."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        self.send("Network.enable", session=session)
        self.send("Page.enable", session=session)
        if device:
            width, height, scale, mobile = device
            self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}, session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        return page


class Page:
    def __init__(self, browser, session):
        self.browser = browser
        self.session = session

    def evaluate(self, expression, await_promise=False):
        result = self.browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": await_promise},
                                   session=self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout):
        """Polls `expression` until it is truthy; returns its last value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value or time.monotonic() > deadline:
                return value
            self.browser.pump(0.1)

    def events(self, method):
        return [params for session, name, params in self.browser._events if session == self.session and name == method]
