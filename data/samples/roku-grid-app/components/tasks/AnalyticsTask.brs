sub execute()
    m.endpoint = "https://beacons.example.com/v1/events"
    m.queue = []
    m.top.failures = 0
    sendBeacon({ name: "task_start" })
end sub

sub init()
    m.top.functionName = "execute"
end sub
' Queues an event while a beacon is in flight.
sub queueEvent(event as Object)
    m.queue.Push(event)
    if m.queue.Count() > 50 then m.queue.Shift()
end sub

sub flushQueue()
    while m.queue.Count() > 0
        if not sendBeacon(m.queue.Shift()) then exit while
    end while
end sub

function deviceInfo() as Object
    info = CreateObject("roDeviceInfo")
    return { model: info.GetModel(), os: info.GetOSVersion().major }
end function

' Sends one analytics beacon.

function sendBeacon(event as Object) as Boolean
    transfer = CreateObject("roUrlTransfer")
    transfer.SetUrl(m.endpoint)
    transfer.AddHeader("Content-Type", "application/json")
    event.ts = CreateObject("roDateTime").AsSeconds()
    body = FormatJson(event)
    transfer.SetCertificatesFile("common:/certs/ca-bundle.crt")
    ok = transfer.PostFromString(body) = 200
    if not ok then m.top.failures = m.top.failures + 1
    return ok
end function
