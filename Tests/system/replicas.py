#!/usr/bin/env python3
"""Three loaderd replicas behind nginx, routed as docs/DEPLOY.md says: a
session id starts with its replica's name and a dot, nginx sends
/sessions/<name>.… to that replica and everything else to any of them.

Sessions are created through nginx (they land on every replica), then read,
given events and watched through nginx: every answer must come from the
owner (no 404, no 421). A replica asked for another's session answers 421.

    Tests/system/replicas.py path/to/loaderd
"""
import http.client, json, os, shutil, socket, subprocess, sys, tempfile, time

from loaderd_process import free_port, wait_ready

NAMES = ["loaderd-0", "loaderd-1", "loaderd-2"]


def call(port, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"} if body else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data and r.getheader("Content-Type", "").startswith("application/json") else data)


def nginx_conf(work, front, ports):
    owners = "\n".join(f"        {name} 127.0.0.1:{port};" for name, port in zip(NAMES, ports))
    servers = "\n".join(f"        server 127.0.0.1:{port};" for port in ports)
    return f"""
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    # The replica that owns a session: the id's part before the dot.
    map $uri $loaderd_replica {{
        ~^/sessions/(?<replica>[a-z0-9-]+)\\.  $replica;
        default                              "";
    }}
    # Here a name maps to a local port; in Kubernetes proxy_pass goes to
    # $loaderd_replica.<headless service> instead (docs/DEPLOY.md).
    map $loaderd_replica $loaderd_owner {{
{owners}
    }}
    upstream loaderd_any {{
{servers}
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{front};
        location ~ ^/sessions/[a-z0-9-]+\\. {{
            proxy_pass http://$loaderd_owner;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
            error_page 502 504 = @replica_unavailable;
        }}
        location @replica_unavailable {{
            default_type application/json;
            add_header Retry-After 5 always;
            return 503 '{{"error":{{"status":503,"code":"replica_unavailable","message":"the replica that holds this session is not available; try again shortly"}}}}';
        }}
        location / {{
            proxy_pass http://loaderd_any;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
        }}
    }}
}}
"""


def main():
    binary = sys.argv[1]
    work = tempfile.mkdtemp(prefix="loaderd-replicas-")
    ports = [free_port() for _ in NAMES]
    front = free_port()
    replicas = []
    nginx_started = False
    try:
        for name, port in zip(NAMES, ports):
            env = dict(os.environ, LOADERD_REPLICA_NAME=name)
            replicas.append(subprocess.Popen([binary, "--port", str(port), "--log-level", "off"], env=env,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in ports:
            wait_ready(port)
        with open(f"{work}/nginx.conf", "w") as f:
            f.write(nginx_conf(work, front, ports))
        subprocess.run(["nginx", "-c", f"{work}/nginx.conf"], check=True)
        nginx_started = True
        wait_ready(front)

        failures = []
        sessions = []
        for _ in range(12):
            status, body = call(front, "POST", "/sessions", body='{"loader":"web"}')
            if status != 201:
                failures.append(f"create: {status}")
                continue
            sessions.append((body["id"], body["token"]))
        owners = {sid.split(".")[0] for sid, _ in sessions}
        answers = 0
        for sid, token in sessions:
            for method, path, body in [("GET", f"/sessions/{sid}", None),
                                       ("POST", f"/sessions/{sid}/events", '{"type":"progress"}'),
                                       ("GET", f"/sessions/{sid}/frames", None)]:
                status, _ = call(front, method, path, body=body, token=token if method == "POST" else None)
                answers += 1
                if status not in (200, 202):
                    failures.append(f"{method} {path} through nginx: {status}")
        # A live stream through nginx follows its session to the end.
        sid, token = sessions[0]
        stream = socket.create_connection(("127.0.0.1", front), timeout=5)
        stream.sendall(f"GET /sessions/{sid}/frames?stream=sse&fps=10 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        seen = b""
        while b"event: frame" not in seen:
            seen += stream.recv(65536)
        call(front, "POST", f"/sessions/{sid}/events", body='{"type":"stop"}', token=token)
        deadline = time.monotonic() + 5
        while b"event: end" not in seen and time.monotonic() < deadline:
            chunk = stream.recv(65536)
            if not chunk:
                break
            seen += chunk
        stream.close()
        if b"event: end" not in seen:
            failures.append("the stream through nginx did not end after stop")
        # Straight to a replica that does not own the session: 421.
        sid = sessions[-1][0]
        owner = NAMES.index(sid.split(".")[0])
        wrong = ports[(owner + 1) % len(ports)]
        status, body = call(wrong, "GET", f"/sessions/{sid}")
        if status != 421 or body["error"]["code"] != "misdirected_request":
            failures.append(f"wrong replica answered {status}")

        # The owner away: the router answers a JSON 503 with Retry-After.
        replicas[owner].terminate()
        replicas[owner].wait()
        status, body = call(front, "GET", f"/sessions/{sid}")
        if status != 503 or body["error"]["code"] != "replica_unavailable":
            failures.append(f"a session of a stopped replica through nginx: {status}")

        print(f"replicas: {len(sessions)} sessions created through nginx on {len(owners)} of {len(NAMES)} replicas; "
              f"{answers} session requests routed, {len(failures)} failures; a stream followed its session to event: end; "
              f"the wrong replica answered 421; with the owner stopped, the router answered a JSON 503")
        if failures or len(owners) < 2:
            for f in failures[:10]:
                print("  " + f)
            print("FAILED" + ("" if failures else ": sessions did not spread over the replicas"))
            sys.exit(1)
        print("replicas: 1 passed, 0 failed")
    finally:
        if nginx_started:
            subprocess.run(["nginx", "-c", f"{work}/nginx.conf", "-s", "stop"], check=False, stderr=subprocess.DEVNULL)
        for p in replicas:
            p.terminate()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
