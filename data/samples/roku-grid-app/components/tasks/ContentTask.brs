sub execute()
    m.feedUrl = "https://api.example.com/roku/feed.json"
    m.retries = 3
    m.top.state = "loading"
    fetchFeed(m.feedUrl)
    m.top.state = "done"
end sub

sub init()
    m.top.functionName = "execute"
end sub

sub onRetry()
    if m.retries > 0 then m.retries = m.retries - 1
    fetchFeed(m.feedUrl)
end sub





' The content task fetches the catalogue feed and hands the rows to the
' scene. It runs on its own thread.

function fetchFeed(url as String) as Void
    transfer = CreateObject("roUrlTransfer")
    transfer.SetCertificatesFile("common:/certs/ca-bundle.crt")
    transfer.InitClientCertificates()
    transfer.SetUrl(url)
    response = transfer.GetToString()
    if response = "" then return
    items = parseFeed(response)
    print "feed: "; items.Count(); " rows"
    m.top.content = { rows: items }
end function
