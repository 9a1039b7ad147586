#!/usr/bin/env python3
"""Every start-up failure stops loaderd with exit code 2 and exactly one
line on standard error that names the problem; `loaderd healthcheck` says
why it failed; the start log gives the effective configuration.

Start-up failures, each from a real process: a config file that cannot be
read, that is not JSON, with an unknown key, with a bad value; a bad
environment value; an invalid host (flag and file); a port in use (a socket
bound here first); a port that needs privilege (run as nobody, when this
runs as root and the kernel reserves port 80); an address no machine has
(192.0.2.1, RFC 5737); a loaders directory that is missing or holds a bad
definition; an invalid session store URL; a data directory that cannot be
made. The system's reasons are matched against Python's os.strerror of the
errno that the case provokes, never against loaderd's own text.

A Redis that cannot be reached is not a start-up failure (docs/DEPLOY.md):
loaderd starts, and the log says so.

    Tests/system/startup_failures.py path/to/loaderd
"""
import errno, http.server, json, os, shutil, socket, subprocess, sys, tempfile, threading, time

import loaderd_process
from loaderd_process import free_port

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def run(binary, args, env=None, preexec_fn=None, timeout=20):
    """(exit code, stdout lines, stderr text) of a loaderd that should stop by itself."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LOADERD_")}
    full_env.update(env or {})
    p = subprocess.run([binary, *args], env=full_env, capture_output=True, text=True, timeout=timeout, preexec_fn=preexec_fn)
    return p.returncode, p.stdout.splitlines(), p.stderr


def expect_failure(name, binary, args, words, env=None, absent=(), preexec_fn=None):
    """Exit 2, one non-empty line on stderr that holds every word, nothing on
    stdout but JSON log lines below warning, and no word of `absent` anywhere."""
    code, out, err = run(binary, args, env, preexec_fn)
    lines = err.split("\n")
    ok = check(code == 2, f"{name}: exit {code}, not 2 (stderr {err!r})")
    ok &= check(len(lines) == 2 and lines[1] == "" and lines[0].strip() != "",
                f"{name}: stderr is not exactly one line: {err!r}")
    for word in words:
        ok &= check(word in err, f"{name}: stderr does not name {word!r}: {err!r}")
    for line in out:
        try:
            record = json.loads(line)
        except ValueError:
            ok &= check(False, f"{name}: stdout line is not a log line: {line!r}")
            continue
        ok &= check(record.get("level") in ("debug", "info"), f"{name}: stdout has {record.get('level')}: {line!r}")
    for word in absent:
        ok &= check(word not in err and all(word not in line for line in out), f"{name}: {word!r} was printed")
    print(f"  {'ok' if ok else 'FAILED'}: {name}: exit {code}: {err.strip()}")


def start_failures(binary):
    d = tempfile.mkdtemp()
    missing = os.path.join(d, "missing.json")
    not_json = os.path.join(d, "not.json")
    with open(not_json, "w") as f:
        f.write('{"port": 8080,')
    unknown = os.path.join(d, "unknown.json")
    with open(unknown, "w") as f:
        json.dump({"port": 8080, "colour": "blue"}, f)
    bad_value = os.path.join(d, "bad-value.json")
    with open(bad_value, "w") as f:
        json.dump({"port": 70000}, f)
    bad_host = os.path.join(d, "bad-host.json")
    with open(bad_host, "w") as f:
        json.dump({"host": "loaderd.example"}, f)
    loaders = os.path.join(d, "loaders")
    os.mkdir(loaders)
    with open(os.path.join(loaders, "broken.json"), "w") as f:
        json.dump({"format": 1, "name": "broken", "summary": "s", "canvas": {"width": 9, "height": 9}, "layers": "none"}, f)
    a_file = os.path.join(d, "a-file")
    open(a_file, "w").close()

    expect_failure("config file missing", binary, ["--config", missing], [missing, os.strerror(errno.ENOENT), "--config"])
    expect_failure("config file not JSON", binary, ["--config", not_json], [not_json, "invalid JSON"])
    expect_failure("config file unknown key", binary, ["--config", unknown], [unknown, "colour"])
    expect_failure("config file bad value", binary, ["--config", bad_value], [bad_value, "port", "70000"])
    expect_failure("environment bad value", binary, [], ["LOADERD_MAX_STREAMS", "many"], env={"LOADERD_MAX_STREAMS": "many"})
    expect_failure("invalid --host", binary, ["--host", "nonsense", "--port", "0"], ["--host", "nonsense"])
    expect_failure("invalid host in the file", binary, ["--config", bad_host], [bad_host, "host", '"loaderd.example"'])

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    expect_failure("port in use", binary, ["--port", str(port)], [f"127.0.0.1:{port}", os.strerror(errno.EADDRINUSE), "--port"])
    holder.close()

    # Binding port 80 needs privilege where the kernel reserves it; as root,
    # only a process that dropped to nobody meets that.
    with open("/proc/sys/net/ipv4/ip_unprivileged_port_start") as f:
        reserved_below = int(f.read())
    if reserved_below > 80 and os.geteuid() == 0:
        def as_nobody():
            os.setgid(65534)
            os.setuid(65534)
        # nobody may not reach the build (a clone in a private directory):
        # a copy it can run.
        shared = tempfile.mkdtemp()
        os.chmod(shared, 0o755)
        copy = os.path.join(shared, "loaderd")
        shutil.copy(binary, copy)
        os.chmod(copy, 0o755)
        expect_failure("port needs privilege", copy, ["--port", "80"], ["127.0.0.1:80", os.strerror(errno.EACCES), "--port"],
                       preexec_fn=as_nobody)
        shutil.rmtree(shared)
    elif reserved_below > 80:
        expect_failure("port needs privilege", binary, ["--port", "80"], ["127.0.0.1:80", os.strerror(errno.EACCES), "--port"])
    else:
        print(f"  skipped: port needs privilege (the kernel reserves no port below {reserved_below})")

    expect_failure("address not on this machine", binary, ["--host", "192.0.2.1", "--port", "0"],
                   ["192.0.2.1", os.strerror(errno.EADDRNOTAVAIL), "--host"])
    expect_failure("loaders directory missing", binary, ["--port", "0", "--loaders-dir", os.path.join(d, "none")],
                   ["loadersDir", os.strerror(errno.ENOENT)])
    expect_failure("bad definition in the loaders directory", binary, ["--port", "0", "--loaders-dir", loaders],
                   ["loadersDir", "broken.json", "layers"])
    expect_failure("session store URL without a port", binary, ["--port", "0", "--session-store", "redis://:hunter2@redis"],
                   ["sessionStore", "port"], absent=["hunter2"])
    expect_failure("session store of no kind", binary, ["--port", "0", "--session-store", "memcached://x:1"], ["sessionStore"])
    expect_failure("data directory cannot be made", binary, ["--port", "0", "--data-dir", os.path.join(a_file, "sessions")],
                   ["dataDir", os.strerror(errno.ENOTDIR), "--data-dir"])


def start_log(binary):
    """A Redis nobody listens on is no start-up failure; the configuration
    line names the file, the store without its password, what differs."""
    d = tempfile.mkdtemp()
    config = os.path.join(d, "loaderd.json")
    with open(config, "w") as f:
        json.dump({"maxStreams": 500, "accessLog": False}, f)
    port, redis_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOADERD_")}
    env.update({"LOADERD_SESSION_CREATE_KEY": "key-s3cret"})
    with open(os.path.join(d, "log"), "w+") as log:
        p = subprocess.Popen([binary, "--config", config, "--port", str(port), "--session-store", f"redis://app:pw-s3cret@127.0.0.1:{redis_port}"],
                             env=env, stdout=log, stderr=subprocess.PIPE)
        try:
            loaderd_process.wait_ready(port, p)
            deadline = time.monotonic() + 10
            records = []
            while time.monotonic() < deadline:
                log.seek(0)
                records = [json.loads(line) for line in log.read().splitlines() if line.strip()]
                if any(r["msg"] == "started" for r in records) and any(r["msg"] == "session store unavailable" for r in records):
                    break
                time.sleep(0.05)
        finally:
            p.terminate()
            err = p.communicate(timeout=20)[1].decode()
    configuration = next((r for r in records if r["msg"] == "configuration"), {})
    ok = check(any(r["msg"] == "session store unavailable" for r in records), "unreachable Redis: no 'session store unavailable' line")
    ok &= check(p.returncode == 0 and err == "", f"unreachable Redis: exit {p.returncode}, stderr {err!r}")
    expected = {"configFile": config, "dataDir": "none", "sessionStore": f"redis://***@127.0.0.1:{redis_port}",
                "port": port, "maxStreams": 500, "accessLog": False, "sessionCreateKey": "(set)"}
    ok &= check({k: configuration.get(k) for k in expected} == expected, f"configuration line: {configuration}")
    ok &= check(set(configuration) - set(expected) == {"time", "level", "msg"}, f"configuration line has more: {configuration}")
    ok &= check(all("s3cret" not in json.dumps(r) for r in records), "a secret is in the log")
    print(f"  {'ok' if ok else 'FAILED'}: unreachable Redis starts; configuration line {json.dumps(configuration)}")


class Answer503(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def healthchecks(binary):
    def expect(name, args, code, words):
        got, out, err = run(binary, ["healthcheck", *args])
        lines = err.split("\n")
        ok = check(got == code, f"healthcheck {name}: exit {got}, not {code}")
        if code == 0:
            ok &= check(err == "", f"healthcheck {name}: stderr {err!r}")
        else:
            ok &= check(len(lines) == 2 and lines[1] == "" and lines[0].strip() != "", f"healthcheck {name}: not one line: {err!r}")
        for word in words:
            ok &= check(word in err, f"healthcheck {name}: {word!r} not in {err!r}")
        ok &= check(out == [], f"healthcheck {name}: stdout {out}")
        print(f"  {'ok' if ok else 'FAILED'}: healthcheck {name}: exit {got}: {err.strip()}")

    closed = free_port()
    expect("refused", ["--port", str(closed)], 1, [f"127.0.0.1:{closed}", os.strerror(errno.ECONNREFUSED)])

    server = http.server.HTTPServer(("127.0.0.1", 0), Answer503)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    expect("answered 503", ["--port", str(server.server_address[1])], 1, ["503", "not 200"])
    server.shutdown()

    # A listener that never answers: the kernel accepts, nobody reads.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    expect("no answer", ["--port", str(silent.getsockname()[1])], 1, ["timed out"])
    silent.close()

    expect("invalid host", ["--host", "nonsense"], 2, ["host", "nonsense"])

    port = free_port()
    p = loaderd_process.start(binary, port, "--log-level", "warning")
    try:
        expect("healthy", ["--port", str(port)], 0, [])
    finally:
        p.terminate()
        p.wait(timeout=20)


def main():
    binary = sys.argv[1]
    print("start-up failures:")
    start_failures(binary)
    print("start log:")
    start_log(binary)
    print("healthcheck:")
    healthchecks(binary)
    for f in failures:
        print(f"  FAILED: {f}")
    print(f"start-up failures: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
