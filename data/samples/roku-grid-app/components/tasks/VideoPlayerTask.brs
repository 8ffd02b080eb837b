sub execute()
    m.player = m.top.findNode("player")
    m.top.state = "loading"
    contentId = m.top.contentId
    m.top.renditions = loadStream(contentId)
end sub

sub init()
    m.top.functionName = "execute"
end sub




' Resolves the stream for the selected item and parses its HLS manifest
' to pick the renditions the device can play.

function loadStream(contentId as String) as Object
    transfer = CreateObject("roUrlTransfer")
    transfer.SetUrl("https://api.example.com/roku/streams/" + contentId)
    info = ParseJson(transfer.GetToString())
    transfer.SetUrl(info.hlsUrl)
    manifest = transfer.GetToString()
    m.top.streamUrl = info.hlsUrl
    renditions = parseManifest(manifest)
    m.top.state = "ready"
    return renditions
end function
