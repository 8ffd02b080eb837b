sub Main(args as Dynamic)
    screen = CreateObject("roSGScreen")
    m.port = CreateObject("roMessagePort")
    screen.setMessagePort(m.port)
    RunEventLoop(screen, ShowScene(screen, args))
    InitTheme()
end sub


' Creates the scene; a deep link at launch goes to the scene as well.
function ShowScene(screen as Object, args as Object) as Object
    scene = screen.CreateScene("MainScene")
    screen.show()
    scene.observeField("exitApp", m.port)
    if args.contentId <> invalid and args.mediaType <> invalid
        scene.deepLink = { contentId: args.contentId, mediaType: args.mediaType }
    end if
    return scene
end function








' The event loop: screen events, roInput deep links while the channel runs,
' and the scene asking to exit.
function RunEventLoop(screen as Object, scene as Object) as Void
    input = CreateObject("roInput")
    input.setMessagePort(m.port)
    while true
        msg = wait(0, m.port)
        msgType = type(msg)
        if msgType = "roSGScreenEvent" and msg.isScreenClosed() then return
        if msgType = "roSGNodeEvent" and msg.getField() = "exitApp" then return
        if msgType = "roInputEvent" and msg.isInput() then HandleDeepLink(scene, msg.getInfo())
    end while
end function
