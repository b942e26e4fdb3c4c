-- cargo xtask bench: GET /v1/runs/<id>, each stored run once.
-- args: <ids file> [a path to ask for instead, with the same work on this side]
function init(args)
  ids = {}
  for line in io.lines(args[1]) do ids[#ids + 1] = line end
  instead = args[2]
  taken = 0
end

function request()
  taken = taken + 1
  local id = ids[taken]
  if instead then
    -- The yardstick takes an id as a read does, and goes round them again: it is never
    -- the one to run out.
    if id == nil then taken = 0 end
    return wrk.format("GET", instead)
  end
  if id == nil then
    wrk.thread:stop()
    return wrk.format("GET", "/healthz")
  end
  return wrk.format("GET", "/v1/runs/" .. id)
end
