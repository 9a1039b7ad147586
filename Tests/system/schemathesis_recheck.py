#!/usr/bin/env python3
"""After a failed schemathesis run: is every finding schemathesis's own
false positive of one known kind? Exits 0 only if so, printing each.

The kind: a `negative_data_rejection` finding whose only mutation is an
additional query property that never reached the server. Schemathesis
generates, say, `"": [{}]` as the extra property; the query string cannot
carry it, so the request actually sent holds only declared properties, and
the server rightly answers 200. Such a finding is excused only when every
query name that was sent is a property of the query shape the mutation was
aimed at, and a generated name is missing from what was sent. Anything else
stays a failure.

    schemathesis_recheck.py LOG CRASH-DIR OPENAPI-URL
"""
import glob, json, os, re, sys, urllib.parse, urllib.request


def shape_properties(document, operation, pointer):
    """Property names of the query schema at `pointer` (/properties/query/oneOf/N)."""
    method, path = operation.split(" ", 1)
    parameters = document["paths"][path][method.lower()]["parameters"]
    schema = next(p["schema"] for p in parameters if p["in"] == "query" and p["name"] == "query")
    match = re.fullmatch(r"/properties/query(?:/oneOf/(\d+))?", pointer)
    if not match:
        return None
    if match.group(1) is not None:
        schema = schema["oneOf"][int(match.group(1))]
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return set(schema.get("properties", {}))


def main():
    log, crashes, openapi = sys.argv[1:4]
    text = open(log).read()
    summary = re.findall(r"❌ (ST\d+) [^:\n]+: (\d+)", text)
    if not summary or any(code != "ST201" for code, _ in summary) or "Network Error" in text or "Server error" in text:
        return 1
    expected = sum(int(n) for _, n in summary)
    document = json.load(urllib.request.urlopen(openapi, timeout=10))
    excused = 0
    for path in sorted(glob.glob(os.path.join(crashes, "*.json"))):
        if path.endswith("manifest.json"):
            continue
        crash = json.load(open(path))
        step = crash["sequence"][-1]
        failed = [c for c in step["checks"] if c["status"] == "failure"]
        mutations = step["meta"]["phase"].get("data", {}).get("mutations", [])
        if [c["name"] for c in failed] != ["negative_data_rejection"] or len(mutations) != 1:
            return 1
        mutation = mutations[0]
        if mutation.get("keywords") != ["additionalProperties"] or mutation.get("parameter_location") != "query":
            return 1
        declared = shape_properties(document, crash["operation"], mutation["schema_pointer"])
        sent = {name for name, _ in urllib.parse.parse_qsl(urllib.parse.urlsplit(step["url"]).query, keep_blank_values=True)}
        generated = set(step["query"]) if isinstance(step.get("query"), dict) else set()
        if declared is None or not sent <= declared or not (generated - sent):
            return 1
        print(f"schemathesis false positive excused: {crash['operation']}: the extra query properties "
              f"{sorted(generated - sent)!r} were never sent ({step['url']}); every name sent is declared")
        excused += 1
    return 0 if excused == expected and excused > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
