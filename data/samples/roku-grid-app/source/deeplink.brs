
' Deep links: roInput events while the channel runs. Launch arguments are
' handled when the scene is created (main.brs).

function HandleDeepLink(scene as Object, info as Object) as Boolean
    if info = invalid then return false
    contentId = info.contentId
    mediaType = LCase(info.mediaType)
    if contentId = invalid or contentId = "" then return false
    print "deep link: "; contentId; " ("; mediaType; ")"
    scene.deepLink = { contentId: contentId, mediaType: mediaType }
    return true
end function
