-- cargo xtask bench: POST /v1/submit, a distinct round each request.
-- args: <bodies file> <threads>
-- The file holds, for each body: its length (u32 LE), its player's token (64 bytes), the body.
local threads = {}
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
  table.insert(threads, thread)
end

function init(args)
  local path, n = args[1], tonumber(args[2])
  local f = assert(io.open(path, "rb"))
  local data = f:read("*a")
  f:close()
  bodies, tokens = {}, {}
  local pos, i = 1, 0
  while pos + 67 <= #data do
    local a, b, c, d = data:byte(pos, pos + 3)
    local len = a + b * 256 + c * 65536 + d * 16777216
    if i % n == tid then
      tokens[#tokens + 1] = data:sub(pos + 4, pos + 67)
      bodies[#bodies + 1] = data:sub(pos + 68, pos + 67 + len)
    end
    pos = pos + 68 + len
    i = i + 1
  end
  data = nil
  taken, oks, ranked, nos, others, ran_out, first_no = 0, 0, 0, 0, 0, 0, ""
end

function request()
  taken = taken + 1
  local body = bodies[taken]
  if body == nil then
    ran_out = 1
    wrk.thread:stop()
    -- Something must be sent; the trivial route costs the server least.
    return wrk.format("GET", "/healthz")
  end
  bodies[taken] = nil
  local headers = {
    ["Authorization"] = "Bearer " .. tokens[taken],
    ["Content-Type"] = "application/octet-stream",
  }
  return wrk.format("POST", "/v1/submit", headers, body)
end

function response(status, headers, body)
  local head = body:sub(1, 3)
  if status == 200 and head == "ok " then
    oks = oks + 1
    if body:find(" ranked\n", 1, true) then ranked = ranked + 1 end
  elseif status == 200 and head == "no " then
    nos = nos + 1
    if first_no == "" then first_no = body:gsub("%s+$", "") end
  else
    others = others + 1
  end
end

function done(summary, latency, requests)
  local ok, rk, no, other, out, why = 0, 0, 0, 0, 0, ""
  for _, t in ipairs(threads) do
    ok = ok + t:get("oks")
    rk = rk + t:get("ranked")
    no = no + t:get("nos")
    other = other + t:get("others")
    out = out + t:get("ran_out")
    if why == "" then why = t:get("first_no") end
  end
  io.write(string.format("typepper-submit ok=%d ranked=%d no=%d other=%d ran_out=%d first_no=%s\n",
    ok, rk, no, other, out, why))
end
