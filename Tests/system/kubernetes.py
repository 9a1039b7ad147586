#!/usr/bin/env python3
"""The Kubernetes manifests as a cluster would take them, on this machine:

1. every manifest validates against the Kubernetes schemas of each version
   we support (kubernetes-validate, offline, strict: unknown fields fail);
2. the Redis-mode manifests run under `podman kube play`: Redis with the
   password of its Secret, two loaderd replicas from deployment.yaml with
   configmap.yaml, each passing its readiness probe; a frame is served, and
   a session made on one replica takes an event on the other and streams
   there; then everything is torn down.

podman 4.3 plays Pods, Deployments, PersistentVolumeClaims and ConfigMaps.
What it does not play is run as its closest equivalent, and said here:
- Redis's StatefulSet runs as a Deployment of the same pod template, its
  volumeClaimTemplate as a PersistentVolumeClaim (podman volume);
- a Service is the pod's name on the network: the pods join one podman
  network with DNS, and each selected pod gets the Service's name as an alias;
- a Secret is a podman secret holding its data (JSON of base64 values), which
  is what `secretKeyRef` reads under podman;
- one Deployment's replicas are played as separate pods (loaderd-a, loaderd-b)
  of the same pod template, since podman makes one pod per Deployment;
- podman publishes a `containerPort` on the host's same port, which two
  replicas cannot share: `ports` are left out, and each pod is reached at its
  own address, as in a cluster.

    Tests/system/kubernetes.py IMAGE KUBERNETES_VALIDATE
"""
import base64, copy, json, os, secrets, subprocess, sys, time

import yaml

import loaderd_process
from loaderd_process import until

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "../.."))
DEPLOY = os.path.join(ROOT, "deploy/kubernetes")
VERSIONS = ["1.30.0", "1.31.0", "1.32.0", "1.33.0", "1.34.0", "1.35.0", "1.36.0", "1.37.0"]
failures, rows = [], []


def check(ok, what):
    if not ok:
        failures.append(what)
    return ok


def podman(*args, check_rc=True, input=None):
    r = subprocess.run(["podman", *args], capture_output=True, text=True, input=input)
    if check_rc and r.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()


def manifests():
    """Every Kubernetes manifest (kustomization files are kustomize's, not the cluster's)."""
    found = []
    for directory, _, files in os.walk(DEPLOY):
        found += [os.path.join(directory, f) for f in files if f.endswith(".yaml") and f != "kustomization.yaml"]
    return sorted(found)


def validate(tool):
    files = manifests()
    for version in VERSIONS:
        r = subprocess.run([tool, "--strict", "--quiet", "-k", version, *files], capture_output=True, text=True)
        check(r.returncode == 0, f"schema {version}: {r.stdout.strip()} {r.stderr.strip()}")
    rows.append(f"{len(files)} manifests valid (strict) against the schemas of Kubernetes {VERSIONS[0]} to {VERSIONS[-1]}")


def load(name):
    with open(os.path.join(DEPLOY, "redis-mode", name)) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def pod_ip(pod, network):
    infra = json.loads(podman("pod", "inspect", pod))
    infra = infra[0] if isinstance(infra, list) else infra
    data = json.loads(podman("inspect", infra["InfraContainerID"]))
    return data[0]["NetworkSettings"]["Networks"][network]["IPAddress"], infra["InfraContainerID"]


def alias(pod, network, name):
    """Gives pod the Service's name on the network (a Service's DNS name, as podman can)."""
    _, infra = pod_ip(pod, network)
    podman("network", "disconnect", network, infra)
    podman("network", "connect", "--alias", name, network, infra)


def call(ip, method, path, body=None, headers=None):
    return loaderd_process.call(ip, 8080, method, path, body, headers)


def playable(pod_template):
    """The pod template as podman plays it: without published ports."""
    for c in pod_template["spec"]["containers"]:
        c.pop("ports", None)
    return pod_template


def play(image, workdir):
    network = f"loaderd-kube-{os.getpid()}"
    played = []
    volumes_before = set(podman("volume", "ls", "-q").split())
    podman("network", "create", network)
    podman("secret", "rm", "loaderd-redis", check_rc=False)
    password = secrets.token_hex(32)
    podman("secret", "create", "loaderd-redis", "-",
           input=json.dumps({"password": base64.b64encode(password.encode()).decode()}))
    try:
        # Redis: its StatefulSet as a Deployment of the same pod, its Service as an alias.
        redis_docs = load("redis.yaml")
        service = next(d for d in redis_docs if d["kind"] == "Service")
        sts = next(d for d in redis_docs if d["kind"] == "StatefulSet")
        template = playable(copy.deepcopy(sts["spec"]["template"]))
        documents = []
        for claim in sts["spec"].get("volumeClaimTemplates", []):
            claim_name = f"{claim['metadata']['name']}-{sts['metadata']['name']}-0"
            documents.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": claim_name}, "spec": claim["spec"]})
            template["spec"].setdefault("volumes", []).append({"name": claim["metadata"]["name"], "persistentVolumeClaim": {"claimName": claim_name}})
        documents.append({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": sts["metadata"],
                         "spec": {"replicas": 1, "selector": sts["spec"]["selector"], "template": template}})
        redis_file = os.path.join(workdir, "redis.yaml")
        with open(redis_file, "w") as f:
            yaml.safe_dump_all(documents, f)
        podman("kube", "play", "--network", network, redis_file)
        played.append(("kube", redis_file))
        redis_pod = f"{sts['metadata']['name']}-pod-0"
        check(service["spec"]["selector"].items() <= template["metadata"]["labels"].items(), "the Redis Service selects the Redis pod")
        alias(redis_pod, network, service["metadata"]["name"])
        # Redis's readiness probe, as the kubelet runs it.
        probe = template["spec"]["containers"][0]["readinessProbe"]["exec"]["command"]
        redis_container = f"{redis_pod}-{template['spec']['containers'][0]['name']}"
        ready = until(20, lambda: subprocess.run(["podman", "exec", redis_container, *probe], capture_output=True).returncode == 0)
        check(ready, "Redis never passed its readiness probe")
        # Without the password, Redis refuses.
        refused = subprocess.run(["podman", "exec", redis_container, "redis-cli", "ping"], capture_output=True, text=True).stdout
        check("NOAUTH" in refused, f"Redis answered without its password: {refused!r}")

        # loaderd: configmap.yaml and deployment.yaml, two replicas of its pod.
        configmap = load("configmap.yaml")
        deployment = load("deployment.yaml")[0]
        pods = []
        for replica in ("a", "b"):
            d = copy.deepcopy(deployment)
            d["metadata"]["name"] = f"loaderd-{replica}"
            d["spec"]["replicas"] = 1
            d["spec"]["template"]["spec"]["containers"][0]["image"] = image
            playable(d["spec"]["template"])
            path = os.path.join(workdir, f"loaderd-{replica}.yaml")
            with open(path, "w") as f:
                yaml.safe_dump_all(configmap + [d], f)
            podman("kube", "play", "--network", network, path)
            played.append(("kube", path))
            pods.append(f"loaderd-{replica}-pod-0")
        container = deployment["spec"]["template"]["spec"]["containers"][0]
        readiness = container["readinessProbe"]["httpGet"]["path"]
        ips = []
        for pod in pods:
            ip, _ = pod_ip(pod, network)
            ips.append(ip)
            ok = until(30, lambda: call(ip, "GET", readiness)[0] == 200)
            if not check(ok, f"{pod} never passed its readiness probe ({readiness})"):
                print(podman("logs", f"{pod}-{container['name']}", check_rc=False))
        if failures:
            return
        a, b = ips
        status, frame = call(a, "GET", "/loaders/typing/frames?t=0.5")
        check(status == 200 and json.loads(frame).get("loader") == "typing", f"a frame: {status} {frame[:200]!r}")
        # The config file was read (configmap.yaml's logLevel info gives the start lines), and the image's loadersDir is still there.
        logs = podman("logs", f"{pods[0]}-{container['name']}", check_rc=False)
        check('"msg":"loaders"' in logs and '"loadersDir":"/etc/loaderd/loaders"' in logs, f"the start lines: {logs[:600]}")
        # A session made on one replica takes an event on the other and streams there.
        status, body = call(a, "POST", "/sessions", body='{"loader":"web"}', headers={"Content-Type": "application/json"})
        check(status == 201, f"create on {pods[0]}: {status} {body[:200]!r}")
        session = json.loads(body) if status == 201 else {"id": "none", "token": ""}
        status, _ = call(b, "POST", f"/sessions/{session['id']}/events", body='{"type":"progress"}',
                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {session['token']}"})
        check(status == 202, f"an event on {pods[1]}: {status}")
        status, body = call(b, "GET", f"/sessions/{session['id']}")
        state = json.loads(body) if status == 200 else {}
        check(status == 200 and state.get("eventCount") == 1, f"the session on {pods[1]}: {status} {body[:200]!r}")
        status, first = loaderd_process.first_frame(b, 8080, f"/sessions/{session['id']}/frames?stream=sse&fps=10")
        check(status == 200 and b"event: frame" in first and b'"loader":"web"' in first, f"the stream on {pods[1]}: {status} {first[:300]!r}")
        rows.append(f"podman kube play: Redis (password from its Secret, refused without) and 2 loaderd replicas ready; "
                    f"a frame served; a session made on {pods[0]}, its event posted, read and streamed on {pods[1]}")
    finally:
        for kind, what in reversed(played):
            if kind == "kube":
                podman("kube", "down", what, check_rc=False)
        # The claims' volumes, and those podman made for the ConfigMap and the image's VOLUME.
        for volume in set(podman("volume", "ls", "-q", check_rc=False).split()) - volumes_before:
            podman("volume", "rm", "-f", volume, check_rc=False)
        podman("secret", "rm", "loaderd-redis", check_rc=False)
        podman("network", "rm", "-f", network, check_rc=False)
        left = podman("pod", "ps", "--format", "{{.Name}}", check_rc=False)
        check(not any(p.startswith(("loaderd-a", "loaderd-b", "loaderd-redis")) for p in left.split()), f"pods left behind: {left}")


def main():
    image, tool, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    started = time.monotonic()
    validate(tool)
    play(image, workdir)
    for r in rows:
        print("kubernetes: " + r)
    if failures:
        print("FAILED: " + "; ".join(failures))
        sys.exit(1)
    print(f"kubernetes: 1 passed, 0 failed [{time.monotonic() - started:.1f} s]")


if __name__ == "__main__":
    main()
