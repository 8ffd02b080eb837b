' A poster in a row of the home grid.

function createRowItem(data as Object) as Object
    item = CreateObject("roSGNode", "ContentNode")
    item.id = data.id
    item.title = data.title
    item.hdPosterUrl = data.images.poster + "?w=266&h=150"
    item.description = data.shortDescription
    item.addFields({ duration: data.duration, genres: data.genres.join(", ") })
    item.addFields({ badge: badgeFor(data) })
    item.rating = data.Lookup("rating")
    item.releaseDate = data.releaseDate.Left(4)
    item.addFields({ progress: 0 })
    return item
end function

function badgeFor(data as Object) as String
    if data.isLive = true then return "LIVE"
    if data.quality = "UHD" then return "4K"
    return ""
end function
