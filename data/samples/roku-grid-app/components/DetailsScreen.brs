sub init()
    m.title = m.top.findNode("title")
    m.description = m.top.findNode("description")
    m.poster = m.top.findNode("poster")
    m.buttons = m.top.findNode("buttons")
end sub


' Builds the details content for one item: text, poster, buttons and the
' related row. Runs on the render thread when an item is selected.

function buildDetailsView(item as Object) as Object
    view = CreateObject("roSGNode", "ContentNode")
    view.title = item.title
    view.description = Left(item.description, 300)
    view.hdPosterUrl = item.hdPosterUrl.Replace("w=266", "w=600")
    view.releaseDate = item.releaseDate
    view.rating = item.rating
    buttons = CreateObject("roSGNode", "ContentNode")
    buttons.createChild("ContentNode").title = "Play"
    buttons.createChild("ContentNode").title = "Add to list"
    related = CreateObject("roSGNode", "ContentNode")
    siblings = item.getParent().getChildren(-1, 0)
    for each other in siblings
        if other.id <> item.id then related.appendChild(other.clone(true))
    end for
    m.buttons.content = buttons
    view.addFields({ related: related })
    return view
end function
