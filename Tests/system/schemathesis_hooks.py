"""Schemathesis hooks for loaderd: the one rule of the API that OpenAPI
cannot state.

A batch (GET /loaders/<name>/frames?from=…&to=…&fps=…) has at most 10,000
frames and at most 64 MiB of JSON, and `to` is not before `from`. Each
parameter alone is in the schema; these bounds are arithmetic across
parameters (and, for bytes, across the web loader's events), which JSON
Schema cannot express. The server answers such a batch with a 400 naming
the limit, as documented. This hook keeps schemathesis from generating
those batches as if they were valid: it only removes test cases, and every
check still runs on every case that remains. The bytes bound is an upper
estimate, so it removes a few batches the server would in fact accept.
"""
import re

import schemathesis

MAX_FRAMES = 10_000
MAX_BYTES = 64 << 20
DEFAULT_FPS = 30
FRAME_BYTES = 200      # the envelope of one frame, generously
ELEMENT_BYTES = 200    # one element, generously
FRAMES_PATH = re.compile(r"^/loaders/[^/]+/frames$")


def _number(value, default):
    if value is None:
        return default
    return float(value)


@schemathesis.hook
def filter_case(context, case):
    if not FRAMES_PATH.match(case.operation.path):
        return True
    query = case.query or {}
    if isinstance(query.get("query"), dict):  # the object parameter, before it is exploded
        query = query["query"]
    if "to" not in query or "stream" in query:
        return True  # not a batch
    try:
        start = _number(query.get("from"), 0.0)
        end = _number(query.get("to"), 0.0)
        fps = _number(query.get("fps"), DEFAULT_FPS)
    except (TypeError, ValueError):
        return True  # malformed: the server must reject it, and is checked on it
    if not (0 <= start <= 1e9 and 0 <= end <= 1e9 and 1 <= fps <= 120):
        return True  # a parameter out of its own range: the server must reject it, and is checked on it
    if end < start:
        return False
    frames = (end - start) * fps
    if frames >= MAX_FRAMES:
        return False
    progress = query.get("progress")
    drops = len(str(progress).split(",")) if progress else 0
    return (int(frames) + 1) * (FRAME_BYTES + (drops + 1) * ELEMENT_BYTES) <= MAX_BYTES


# Events need the session's bearer token, which only the answer to
# POST /sessions holds; schemathesis cannot carry it over by itself, so
# POST /sessions/{id}/events would only ever see 401 and 404. This auth
# provider creates a fresh web session (where every event type applies) for
# each of its cases and puts the id and token into the request; the body and
# everything else still come from the schema. As configured auth, it also
# makes the ignored_auth check probe the operation without a token and with a
# wrong one, expecting 401. DELETE /sessions/{id} is left without: its probes
# would come after the session is gone, and a session that is gone is 404
# whatever the token (the Swift tests cover its token rules).
import json
import os
import urllib.request

SESSION_WRITES = {("POST", "/sessions/{id}/events")}


@schemathesis.auth(refresh_interval=None)
class SessionToken:
    def get(self, case, context):
        if (case.operation.method.upper(), case.operation.path) not in SESSION_WRITES:
            return None
        request = urllib.request.Request(
            os.environ["LOADERD_URL"] + "/sessions", data=b'{"loader":"web"}', method="POST",
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            created = json.loads(response.read())
        return created["id"], created["token"]

    def set(self, case, data, context):
        session_id, token = data
        case.path_parameters = {**(case.path_parameters or {}), "id": session_id}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
