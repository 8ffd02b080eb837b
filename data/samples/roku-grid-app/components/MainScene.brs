sub init()
    m.top.backgroundColor = "0x101820FF"
    m.homeGrid = m.top.findNode("homeGrid")
    m.details = m.top.findNode("details")
    setupNavigation()
    m.contentTask = CreateObject("roSGNode", "ContentTask")
    m.contentTask.observeField("content", "onContentLoaded")
    m.contentTask.control = "RUN"
    m.top.observeField("deepLink", "onDeepLink")
    m.homeGrid.observeField("itemSelected", "onItemSelected")
    m.stack = [m.homeGrid]
    m.homeGrid.setFocus(true)
end sub


sub onContentLoaded()
    m.homeGrid.content = m.contentTask.content
end sub

sub onDeepLink()
    link = m.top.deepLink
    if link <> invalid then showDetails(link.contentId)
end sub

sub onItemSelected()
    showDetails(m.homeGrid.focusedContent.id)
end sub

sub onOptions()
    m.top.findNode("optionsPanel").visible = true
end sub

sub playFocused()
    player = m.top.findNode("player")
    player.content = m.homeGrid.focusedContent
    player.control = "play"
end sub


sub setupNavigation()
    m.keyMap = { back: "popScreen", options: "showOptions", play: "playFocused" }
    m.top.observeField("focusedChild", "onFocusChanged")
    m.analytics = CreateObject("roSGNode", "AnalyticsTask")
    m.analytics.control = "RUN"
    m.top.setFocus(true)
    m.analytics.event = { name: "app_start" }
    m.player = m.top.findNode("player")
end sub

sub onFocusChanged()
    if m.top.focusedChild = invalid then m.stack.peek().setFocus(true)
end sub

sub popScreen()
    if m.stack.count() < 2 then return
    m.stack.pop().visible = false
    m.stack.peek().visible = true
end sub

sub showOptions()
    m.top.findNode("optionsPanel").visible = true
end sub























' Keys not handled by the focused node bubble up to the scene.

function onKeyEvent(key as String, press as Boolean) as Boolean
    if not press then return false
    action = m.keyMap[key]
    if key = "OK" and m.homeGrid.hasFocus() then return false
    if key = "play" then showDetails(m.homeGrid.focusedContent.id)
    if action = invalid then return false
    if action = "popScreen" and m.stack.count() > 1
        m.stack.pop().visible = false
        top = m.stack.peek()
        top.visible = true
        top.setFocus(true)
        return true
    end if
    return action = "showOptions"
end function

function isDetailsShown() as Boolean
    return m.details.visible
end function











' Details: build the screen for one item and push it on the stack.

sub showDetails(contentId as String)
    item = m.homeGrid.content.findNodeById(contentId)
    if item = invalid then return
    m.details.visible = true
    m.homeGrid.visible = false
    m.stack.push(m.details)
    m.details.itemId = contentId
    m.details.content = buildDetailsView(item)
    m.analytics.event = { name: "details", id: contentId }
    m.details.setFocus(true)
end sub
