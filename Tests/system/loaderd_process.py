"""What the system tests share: a free port, and a loaderd (or any server)
that is ready to answer."""
import http.client, socket, subprocess, time


def free_port():
    """A port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_ready(port, process=None, seconds=20):
    """Polls GET /readyz until it answers 200; stops the process and exits if it never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/readyz")
            if c.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.02)
    if process is not None:
        process.kill()
    raise SystemExit(f"nothing ready on port {port}")


def start(binary, port, *args, env=None, stdout=subprocess.DEVNULL, preexec_fn=None):
    """`binary --port PORT ARGS…`, once it is ready."""
    p = subprocess.Popen([binary, "--port", str(port), *args], env=env, stdout=stdout,
                         stderr=subprocess.DEVNULL, preexec_fn=preexec_fn)
    wait_ready(port, p)
    return p
