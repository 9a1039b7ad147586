#!/usr/bin/env python3
"""Figures for sessions in Redis (not a test): events acknowledged per second
across the replicas, and the time from an event's 202 to a viewer on another
replica receiving the frame that shows it.

    bench/sessions_redis_load.py PORT1,PORT2,PORT3 [seconds]
"""
import http.client, json, socket, statistics, sys, threading, time

ports = [int(p) for p in sys.argv[1].split(",")]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5

def post(conn, path, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", path, body=body, headers=headers)
    r = conn.getresponse()
    return r.status, r.read()

def create(port, body='{"loader":"web"}'):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    status, data = post(c, "/sessions", body)
    assert status == 201, (status, data)
    j = json.loads(data)
    return j["id"], j["token"]

# 1. Events acknowledged per second: 8 writers over the replicas, each on its own sessions.
counts = [0] * 8
stop = threading.Event()
def writer(n):
    port = ports[n % len(ports)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    sessions = [create(port) for _ in range(4)]
    i = 0
    while not stop.is_set():
        sid, token = sessions[i % len(sessions)]
        i += 1
        status, _ = post(conn, f"/sessions/{sid}/events", '{"type":"progress"}', token)
        if status == 202:
            counts[n] += 1
        elif status == 429:
            sessions[i % len(sessions)] = create(port)
threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
for t in threads: t.start()
time.sleep(seconds)
stop.set()
for t in threads: t.join()
print(f"events acknowledged: {sum(counts) / seconds:.0f}/s over {len(ports)} replicas (8 writers, keep-alive; appendfsync always)")

# 2. Event to frame on another replica: the viewer reads at 120 fps.
sid, token = create(ports[0], '{"loader":"web","params":{"pulseDuration":0.05,"dropDuration":0.2}}')
s = socket.create_connection(("127.0.0.1", ports[2]), timeout=10)
s.sendall(f"GET /sessions/{sid}/frames?fps=120 HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
buf = [b""]
def frames_until(marker, deadline):
    while time.monotonic() < deadline:
        while b"\n\n" in buf[0]:
            event, buf[0] = buf[0].split(b"\n\n", 1)
            if marker in event:
                return time.monotonic()
        buf[0] += s.recv(65536)
    return None
frames_until(b"event: frame", time.monotonic() + 5)
writer_conn = http.client.HTTPConnection("127.0.0.1", ports[1], timeout=5)
latencies = []
for n in range(60):
    status, _ = post(writer_conn, f"/sessions/{sid}/events", '{"type":"progress"}', token)
    acked = time.monotonic()
    seen = frames_until(f'"drop{n}"'.encode(), acked + 3)
    if seen is not None:
        latencies.append((seen - acked) * 1000)
latencies.sort()
print(f"event to a viewer's frame on another replica: p50 {latencies[len(latencies)//2]:.1f} ms, "
      f"p99 {latencies[min(len(latencies)-1, int(len(latencies)*0.99))]:.1f} ms over {len(latencies)} events (viewer at 120 fps: up to 8.3 ms is the frame interval)")
