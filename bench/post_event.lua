-- wrk: POST a progress event to the session named by SESSION, with TOKEN.
wrk.method = "POST"
wrk.body = '{"type":"progress"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.path = "/sessions/" .. os.getenv("SESSION") .. "/events"
