"""Schemathesis hooks for loaderd: coverage only, never a filter.

Every request the OpenAPI document allows is one the service answers with a
2xx or a documented status, so no case is removed here; schemathesis passes
with no hooks file at all. This file only adds an auth provider, so that the
session writes reach past 401.
"""
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

import schemathesis

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
