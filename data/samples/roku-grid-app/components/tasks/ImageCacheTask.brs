sub execute()
    m.cache = {}
    m.top.cachedCount = 0
    print "image cache started"
    prefetchPosters()
end sub

sub init()
    m.top.functionName = "execute"
end sub

sub onLowMemory()
    print "low memory warning: "; m.cache.Count(); " posters cached"
end sub


' Decodes posters ahead of time and keeps them: every poster the grid has
' ever shown stays in m.cache for the life of the channel.

sub prefetchPosters()
    port = CreateObject("roMessagePort")
    m.top.observeField("urls", port)
    while true
        msg = wait(0, port)
        urls = msg.getData()
        for each url in urls
            cacheBitmap(url)
        end for
    end while
end sub

' Maps a poster URL to its file in tmp:.
function posterPath(url as String) as String
    name = url.Mid(url.InStr("/images/") + 8)
    return "tmp:/posters/" + name.Replace("?", "_")
end function

function downloadPoster(url as String) as Boolean
    transfer = CreateObject("roUrlTransfer")
    transfer.SetUrl(url)
    return transfer.GetToFile(posterPath(url)) = 200
end function

sub clearCache()
    ' never called: the cache was meant to be bounded by the grid
    m.cache.Clear()
    m.top.cachedCount = 0
end sub




' Never evicts: the leak that the live-bytes column shows.

function cacheBitmap(url as String) as Object
    if m.cache.DoesExist(url) then return m.cache[url]
    path = "tmp:/posters/" + url.Mid(url.InStr("/images/") + 8)
    bitmap = CreateObject("roBitmap", path)
    m.cache[url] = bitmap
    m.top.cachedCount = m.cache.Count()
    print "cached "; url
    return bitmap
end function
