#!/usr/bin/env python3
"""deploy/monitoring/ against Debian's promtool and a live loaderd.

1. `/metrics` of a running loaderd, after a little of every kind of traffic,
   in each session store: local (a journal in a data directory), Redis, and
   Redis behind a Sentinel (a redis-server and a Sentinel on free ports):
   `promtool check metrics` exits 0 and prints nothing (no lint);
2. `promtool check config` on prometheus.yml as shipped, and with its
   commented Kubernetes job in place of the static one (its discovery
   checked apart: Debian's Prometheus is built without it);
3. `promtool check rules` on rules.yml; every alert has a `for`, a severity
   and a summary and description; `promtool test rules` on rules.test.yml,
   where every alert of rules.yml fires and then clears;
4. dashboard.json is JSON Grafana imports (schema, a datasource variable,
   unique panel ids), and every query in it parses (promtool, as recording
   rules, with Grafana's variables set);
5. every series the rules and the dashboard read is one that loaderd
   exports, in one of the three modes, or a recording rule of rules.yml, or
   Prometheus's own `up`.

Exits 1 on failure.

    Tests/system/monitoring.py path/to/loaderd
"""
import json, os, re, shutil, signal, subprocess, sys, tempfile, time

import loaderd_process
from loaderd_process import free_port, until
import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MONITORING = os.path.join(ROOT, "deploy", "monitoring")

failures = []
def check(ok, what):
    if not ok:
        failures.append(what)
        print("monitoring: FAILED " + what, flush=True)
    return ok

def say(line):
    print("monitoring: " + line, flush=True)

PROCESSES, DIRECTORIES = [], []

def cleanup():
    for p in PROCESSES:
        if p.poll() is None:
            p.kill()
            p.wait(timeout=10)
    PROCESSES.clear()
    for d in DIRECTORIES:
        shutil.rmtree(d, ignore_errors=True)
    DIRECTORIES.clear()

def scratch():
    d = tempfile.mkdtemp(prefix="loaderd-monitoring-")
    DIRECTORIES.append(d)
    return d

def promtool(*args, stdin=None):
    """(exit code, what it printed on either stream)."""
    r = subprocess.run(["promtool", *args], input=stdin, capture_output=True, text=True, timeout=120)
    return r.returncode, (r.stdout + r.stderr).strip()


# ------------------------------------------------------------ live /metrics

def request(port, method, path, body=None, headers=None):
    return loaderd_process.call("127.0.0.1", port, method, path, body=body, headers=headers, timeout=10)

def traffic(port):
    """A little of each kind of answer, so that every family has samples:
    2xx, 4xx, a stream, an export, a session with an event."""
    for method, path in [("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/loaders"), ("GET", "/loaders/typing"),
                         ("GET", "/loaders/typing/frames?t=0.5"), ("GET", "/loaders/typing/frames?t=x"),
                         ("GET", "/no/such/path"), ("POST", "/loaders"), ("GET", "/loaders/typing/animation.svg"),
                         ("GET", "/loaders/typing/frames?stream=sse&duration=0.2&fps=10")]:
        request(port, method, path)
    status, data = request(port, "POST", "/sessions", '{"loader":"typing"}', {"Content-Type": "application/json"})
    if check(status == 201, f"a session created on {port}: {status} {data[:200]!r}"):
        s = json.loads(data)
        status, _ = request(port, "POST", f"/sessions/{s['id']}/events", '{"type":"stop"}',
                            {"Content-Type": "application/json", "Authorization": f"Bearer {s['token']}"})
        check(status == 202, f"an event posted: {status}")
        request(port, "GET", f"/sessions/{s['id']}")

def metrics(port):
    status, data = request(port, "GET", "/metrics")
    check(status == 200, f"/metrics answered {status}")
    return data.decode()

def sample_names(text):
    """The names of the samples (not the families) in exposition text."""
    return {m.group(1) for m in re.finditer(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", text, re.M)}

def gauge(text, name):
    m = re.search(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M)
    return float(m.group(1)) if m else None

def live_mode(binary, mode, args, ready):
    """Starts loaderd with `args`, waits for `ready(/metrics text)`, sends
    traffic, lints /metrics: its sample names."""
    port = free_port()
    p = loaderd_process.start(binary, port, "--log-level", "warning", *args)
    PROCESSES.append(p)
    check(until(10, lambda: ready(metrics(port))), f"{mode}: the store's series as expected in /metrics")
    traffic(port)
    text = metrics(port)
    code, out = promtool("check", "metrics", stdin=text)
    check(code == 0 and out == "", f"{mode}: promtool check metrics exited {code} and printed {out!r}")
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=30)
    names = sample_names(text)
    say(f"{mode}: {len(names)} series names, promtool check metrics: exit {code}, {len(out)} characters of lint")
    return names

def redis_server(directory):
    port = free_port()
    PROCESSES.append(subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                       "--appendonly", "no", "--dir", directory],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return port

def sentinel(directory, primary):
    port = free_port()
    conf = os.path.join(directory, "sentinel.conf")
    with open(conf, "w") as f:
        f.write(f"port {port}\nbind 127.0.0.1\ndir {directory}\n"
                f"sentinel monitor mymaster 127.0.0.1 {primary} 1\n")
    PROCESSES.append(subprocess.Popen(["redis-server", conf, "--sentinel"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return port

def live_names(binary):
    names = set()
    names |= live_mode(binary, "local store with a journal", ["--data-dir", scratch()],
                       lambda t: gauge(t, "loaderd_journal_bytes") is not None)
    redis = redis_server(scratch())
    names |= live_mode(binary, "Redis", ["--session-store", f"redis://127.0.0.1:{redis}"],
                       lambda t: gauge(t, "loaderd_redis_up") == 1)
    watcher = sentinel(scratch(), redis)
    names |= live_mode(binary, "Redis behind a Sentinel", ["--session-store", f"redis-sentinel://127.0.0.1:{watcher}/mymaster"],
                       lambda t: gauge(t, "loaderd_redis_up") == 1 and f'address="127.0.0.1:{redis}"' in t
                       and gauge(t, "loaderd_redis_failovers_total") == 0)
    return names


# ------------------------------------------------------------ configuration and rules

def check_config():
    path = os.path.join(MONITORING, "prometheus.yml")
    code, out = promtool("check", "config", path)
    check(code == 0 and "SUCCESS" in out, f"promtool check config prometheus.yml: {code} {out}")
    # The commented Kubernetes job, uncommented in place of the static one.
    text = open(path).read()
    static = re.search(r"^  - job_name: loaderd\n(?:    .*\n)+", text, re.M)
    commented = re.search(r"^  # - job_name: loaderd\n(?:  #   .*\n)+", text, re.M)
    if check(static and commented, "prometheus.yml has the static job and the commented Kubernetes one"):
        kubernetes = re.sub(r"^  # ", "  ", commented.group(0), flags=re.M)
        job = yaml.safe_load(kubernetes)[0]
        # Debian builds Prometheus without Kubernetes discovery (promtool
        # rejects the field), so promtool reads the job without it, and its
        # discovery is checked here: the pod role, meta labels that role
        # sets (Prometheus' kubernetes_sd_config documentation), and the
        # label and port of the pods deploy/kubernetes/ makes.
        check(job.get("kubernetes_sd_configs", [{}])[0].get("role") == "pod", "the Kubernetes job discovers pods")
        documented = re.compile(r"__meta_kubernetes_(namespace|pod_name|pod_phase|pod_container_port_name|pod_label_[a-zA-Z0-9_]+)")
        sources = [l for r in job.get("relabel_configs", []) for l in r.get("source_labels", [])]
        check(sources and all(documented.fullmatch(l) for l in sources), f"the pod role sets every label the job reads: {sources}")
        with open(os.path.join(ROOT, "deploy", "kubernetes", "statefulset.yaml")) as f:
            pod = next(d for d in yaml.safe_load_all(f) if d and d.get("kind") == "StatefulSet")["spec"]["template"]
        kept = {r["source_labels"][0]: r["regex"] for r in job["relabel_configs"] if r.get("action") == "keep"}
        ports = {p.get("name") for c in pod["spec"]["containers"] for p in c.get("ports", [])}
        check(kept.get("__meta_kubernetes_pod_label_app_kubernetes_io_name") == pod["metadata"]["labels"].get("app.kubernetes.io/name")
              and kept.get("__meta_kubernetes_pod_container_port_name") in ports,
              f"the Kubernetes job keeps the pods of statefulset.yaml: {kept}, their ports {ports}")
        without_discovery = re.sub(r"^    kubernetes_sd_configs:\n(?:      .*\n)+", "", kubernetes, flags=re.M)
        directory = scratch()
        shutil.copy(os.path.join(MONITORING, "rules.yml"), directory)
        with open(os.path.join(directory, "prometheus.yml"), "w") as f:
            f.write(text.replace(commented.group(0), "").replace(static.group(0), without_discovery))
        code, out = promtool("check", "config", os.path.join(directory, "prometheus.yml"))
        check(code == 0 and "SUCCESS" in out and "kubernetes_sd_configs" not in without_discovery,
              f"promtool check config with the Kubernetes job's relabelling: {code} {out}")
    say("promtool check config: the shipped file and its Kubernetes variant")

def check_rules():
    path = os.path.join(MONITORING, "rules.yml")
    groups = yaml.safe_load(open(path))["groups"]
    rules = [r for g in groups for r in g["rules"]]
    code, out = promtool("check", "rules", path)
    check(code == 0 and f"SUCCESS: {len(rules)} rules found" in out, f"promtool check rules rules.yml: {code} {out}")
    alerts = [r for r in rules if "alert" in r]
    for a in alerts:
        check("for" in a and a.get("labels", {}).get("severity") in ("critical", "warning", "info")
              and a.get("annotations", {}).get("summary") and a["annotations"].get("description"),
              f"{a['alert']} has a for, a severity, a summary and a description")
    # What the issue asks to be watched: error ratio, latency, store down,
    # shedding, heavy-work refusals, streams near their limit; and the target.
    for name in ["LoaderdDown", "LoaderdErrorRatioHigh", "LoaderdLatencyHigh", "LoaderdSessionStoreDown",
                 "LoaderdConnectionsShed", "LoaderdHeavyWorkSaturated", "LoaderdStreamsNearLimit"]:
        check(any(a["alert"] == name for a in alerts), f"rules.yml has {name}")

    test_path = os.path.join(MONITORING, "rules.test.yml")
    code, out = promtool("test", "rules", test_path)
    check(code == 0 and "SUCCESS" in out, f"promtool test rules rules.test.yml: {code} {out}")
    # Each alert fires at some time and is gone at a later one.
    def minutes(t):
        return float(re.fullmatch(r"(\d+)m", t).group(1))
    cases = [c for t in yaml.safe_load(open(test_path))["tests"] for c in t["alert_rule_test"]]
    for a in alerts:
        fired = [minutes(c["eval_time"]) for c in cases if c["alertname"] == a["alert"] and c.get("exp_alerts")]
        cleared = [minutes(c["eval_time"]) for c in cases if c["alertname"] == a["alert"] and not c.get("exp_alerts")]
        check(fired and any(t > min(fired) for t in cleared), f"rules.test.yml makes {a['alert']} fire, then clear")
    say(f"promtool check rules: {len(rules)} rules, {len(alerts)} alerts; promtool test rules: {len(cases)} cases, exit {code}")
    return rules


# ------------------------------------------------------------ dashboard

# Grafana's variables, as a query would be sent with them set.
VARIABLES = {"$__rate_interval": "5m", "$__range": "1h", "$__interval": "1m", "$job": "loaderd", "$instance": ".*"}

def grafana(expr):
    for name in sorted(VARIABLES, key=len, reverse=True):
        expr = expr.replace(name, VARIABLES[name])
    return expr

def check_dashboard():
    with open(os.path.join(MONITORING, "dashboard.json")) as f:
        dashboard = json.load(f)
    check(isinstance(dashboard.get("schemaVersion"), int) and dashboard["schemaVersion"] >= 36,
          f"schemaVersion {dashboard.get('schemaVersion')}")
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    check(variables.get("datasource", {}).get("type") == "datasource" and variables["datasource"].get("query") == "prometheus",
          "a Prometheus datasource variable")
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    ids = [p["id"] for p in dashboard["panels"]]
    check(len(ids) == len(set(ids)), "panel ids are unique")
    exprs = []
    for p in panels:
        check(p.get("datasource", {}).get("uid") == "${datasource}" and p.get("targets") and p.get("gridPos"),
              f"panel {p['title']!r} has the datasource variable, queries and a place")
        exprs += [t["expr"] for t in p.get("targets", [])]
    # label_values(<series selector>, label): the selector is PromQL too.
    for v in variables.values():
        m = re.fullmatch(r"label_values\((.*), *\w+\)", v.get("definition", ""))
        if v["type"] == "query":
            check(m is not None, f"variable {v['name']} is label_values(…)")
            if m:
                exprs.append(m.group(1))
    directory = scratch()
    path = os.path.join(directory, "dashboard-queries.yml")
    with open(path, "w") as f:
        yaml.safe_dump({"groups": [{"name": "dashboard", "rules": [{"record": f"dashboard:query_{i}", "expr": grafana(e)}
                                                                    for i, e in enumerate(exprs)]}]}, f)
    code, out = promtool("check", "rules", path)
    check(code == 0 and f"SUCCESS: {len(exprs)} rules found" in out, f"the dashboard's queries parse: {code} {out}")
    say(f"dashboard.json: {len(panels)} panels, {len(exprs)} queries, all parsed by promtool")
    return [grafana(e) for e in exprs]


# ------------------------------------------------------------ series names

KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset",
            "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
            "quantile", "inf", "nan"}

def series_names(expr):
    """The metric names a PromQL expression reads: identifiers outside
    strings, label matchers, ranges and label lists, not called, not keywords."""
    e = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', '""', expr)
    e = re.sub(r"\{[^}]*\}", "{}", e)
    e = re.sub(r"\[[^\]]*\]", "[]", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", r"\1", e)
    names = set()
    for m in re.finditer(r"(?<![\w:.])([a-zA-Z_:][\w:]*)(\s*\()?", e):
        if not m.group(2) and m.group(1).lower() not in KEYWORDS:
            names.add(m.group(1))
    return names

def check_names(rules, dashboard_exprs, live):
    # The reader itself, on what the issue names: a histogram's buckets in
    # a quantile, not its functions, labels or durations.
    probe = series_names('histogram_quantile(0.99, sum by (route, le) (rate(loaderd_http_request_duration_seconds_bucket{route!~"/x|y"}[5m]))) > 0.5 and on (job) up offset 1m')
    check(probe == {"loaderd_http_request_duration_seconds_bucket", "up"}, f"series_names reads {probe}")
    recorded = {r["record"] for r in rules if "record" in r}
    used = {}
    for where, exprs in [("rules.yml", [r["expr"] for r in rules]), ("dashboard.json", dashboard_exprs)]:
        for e in exprs:
            for n in series_names(e):
                used.setdefault(n, set()).add(where)
    # `up` is Prometheus's own series for each target it scrapes.
    known = live | recorded | {"up"}
    missing = {n: sorted(w) for n, w in used.items() if n not in known}
    check(not missing, f"series that loaderd does not export: {missing}")
    unused_recordings = recorded - set(used)
    check(not unused_recordings, f"recording rules nothing reads: {unused_recordings}")
    say(f"{len(used)} series names read by the rules and the dashboard, {len(missing)} not exported")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    if shutil.which("promtool") is None:
        raise SystemExit("FAILED: promtool is missing (Debian: apt-get install prometheus)")
    say(subprocess.run(["promtool", "--version"], capture_output=True, text=True).stdout.splitlines()[0])
    try:
        live = live_names(sys.argv[1])
        check_config()
        rules = check_rules()
        dashboard = check_dashboard()
        check_names(rules, dashboard, live)
    finally:
        cleanup()
    if failures:
        raise SystemExit(f"FAILED: {len(failures)} checks")
    print("monitoring: OK")


if __name__ == "__main__":
    main()
