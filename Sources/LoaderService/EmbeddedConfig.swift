/// `config/loaderd.json`, compiled in so that `swift run loaderd` needs no
/// file. A test keeps the two identical.
let embeddedConfigJSON = """
{
  "host": "127.0.0.1",
  "port": 8080,
  "threads": 0,
  "logLevel": "info",
  "accessLog": true,
  "dataDir": null,
  "maxConnections": 16384,
  "maxBodyBytes": 1048576,
  "headerTimeoutSeconds": 10,
  "idleTimeoutSeconds": 60,
  "streamStallTimeoutSeconds": 30,
  "shutdownGraceSeconds": 10,
  "corsAllowedOrigins": ["*"],
  "streamDefaultFps": 30,
  "streamRetryMilliseconds": 1000,
  "streamHeartbeatSeconds": 15,
  "maxSessions": 100000,
  "sessionTtlSeconds": 3600,
  "maxEventsPerSession": 10000,
  "maxViewersPerSession": 10000,
  "journalCompactBytes": 67108864,
  "replicaName": null,
  "sessionStore": "local",
  "redisWaitReplicas": 0,
  "loadersDir": null,
  "trustedProxies": [],
  "maxWorkPerRequest": 20000000,
  "maxStreamWorkPerSecond": 1000000,
  "maxHeavyRequestsPerClient": 2,
  "redisTimeoutSeconds": 1,
  "sessionCreateRate": 2,
  "sessionCreateBurst": 30,
  "sessionCreateKey": null
}
"""
