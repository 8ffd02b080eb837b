sub init()
    m.grid = m.top.findNode("grid")
    m.grid.observeField("rowItemFocused", "onItemFocused")
    m.background = m.top.findNode("background")
    m.focusTitle = m.top.findNode("focusTitle")
    m.top.observeField("content", "onContentChanged")
    m.imageCache = CreateObject("roSGNode", "ImageCacheTask")
    m.imageCache.control = "RUN"
end sub

sub onVisibleChange()
    if m.top.visible then m.grid.setFocus(true)
end sub

function onKeyEvent(key as String, press as Boolean) as Boolean
    if not press then return false
    if key = "options"
        m.top.showOptions = true
        return true
    end if
    return false
end function

sub setLoading(loading as Boolean)
    m.top.findNode("spinner").visible = loading
    m.grid.visible = not loading
end sub





' The feed arrived: one row per category.

sub onContentChanged()
    content = m.top.content
    if content = invalid then return
    m.grid.numRows = content.rows.count()
    buildRows(content)
    m.grid.setFocus(true)
end sub


sub onRowsLoaded()
    m.top.findNode("spinner").visible = false
    m.grid.jumpToRowItem = [0, 0]
end sub

function rowCount() as Integer
    if m.grid.content = invalid then return 0
    return m.grid.content.getChildCount()
end function





' Builds the grid's content nodes, one item node per poster.

sub buildRows(content as Object)
    root = CreateObject("roSGNode", "ContentNode")
    for each row in content.rows
        rowNode = root.createChild("ContentNode")
        rowNode.title = row.title
        rowNode.addFields({ rowId: row.id })
        for each data in row.items
            item = createRowItem(data)
            rowNode.appendChild(item)
            m.imageCache.urls = [item.hdPosterUrl]
        end for
        m.focusTitle.text = row.title
    end for
    m.grid.content = root
end sub

' Rows below the fold load their posters on demand.
sub onRowScrolled()
    row = m.grid.rowItemFocused[0]
    if row + 2 < rowCount() then prefetchRow(row + 2)
end sub

sub prefetchRow(index as Integer)
    rowNode = m.grid.content.getChild(index)
    urls = []
    for each item in rowNode.getChildren(-1, 0)
        urls.Push(item.hdPosterUrl)
    end for
    m.imageCache.urls = urls
end sub

function findItem(id as String) as Object
    for each rowNode in m.grid.content.getChildren(-1, 0)
        for each item in rowNode.getChildren(-1, 0)
            if item.id = id then return item
        end for
    end for
    return invalid
end function

sub focusItem(id as String)
    item = findItem(id)
    if item = invalid then return
    rowNode = item.getParent()
    m.grid.jumpToRowItem = [rowNode.rowIndex, rowNode.getChildren(-1, 0).Find(item)]
end sub
































' The focused poster sets the background and the title.

sub onItemFocused()
    focused = m.grid.rowItemFocused
    row = m.grid.content.getChild(focused[0])
    item = row.getChild(focused[1])
    m.top.focusedContent = item
    m.background.uri = item.hdPosterUrl.Replace("w=266", "w=1920")
    m.focusTitle.text = item.title
    m.top.itemFocusedAt = UpTime(0)
end sub
