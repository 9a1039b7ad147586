-- A different t on every request (100,000 values), so no answer can be reused.
counter = 0
request = function()
  counter = counter + 1
  local t = (counter % 100000) / 1000
  return wrk.format("GET", "/loaders/typing/frames?t=" .. t)
end
