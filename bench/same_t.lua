-- The same frame on every request (t=0.5), sent through a request() function
-- as distinct_t.lua is, so that every side is driven by the same client work.
local path = "/loaders/typing/frames?t=0.5"
request = function()
  return wrk.format("GET", path)
end
