' Feed parsing for the content task: JSON to rows of plain items.
'
' The feed has categories, each with a playlist of item ids, and a map of
' items. Every playlist entry becomes a normalized item.



' Returns an array of rows: { id, title, items }.

function parseFeed(text as String) as Object
    json = ParseJson(text)
    if json = invalid then return []
    rows = []
    for each category in json.categories
        row = { id: category.id, title: category.name, items: [] }
        for each entry in category.playlist
            raw = json.items.Lookup(entry)
            if raw = invalid then continue for
            raw.category = category.name
            item = normalizeItem(raw)
            row.items.Push(item)
        end for
        rows.Push(row)
    end for
    rows.SortBy("title")
    ' the grid shows rows in title order
    return rows
end function

' Picks the poster closest to the grid's size.
function pickPoster(images as Object) as String
    best = ""
    for each image in images
        if image.width >= 266 then return image.url
        best = image.url
    end for
    return best
end function

function parseDuration(text as String) as Integer
    parts = text.Split(":")
    seconds = 0
    for each part in parts
        seconds = seconds * 60 + part.ToInt()
    end for
    return seconds
end function






























' Normalizes one feed entry: the fields the UI expects, with defaults.

function normalizeItem(raw as Object) as Object
    item = {}
    item.id = raw.id
    item.title = raw.title.Trim()
    item.shortDescription = raw.Lookup("shortDescription")
    item.images = { poster: raw.thumbnail }
    item.releaseDate = raw.releaseDate
    item.duration = raw.content.duration
    item.genres = raw.Lookup("genres")
    item.quality = raw.content.videos[0].quality
    item.isLive = raw.Lookup("live") = true
    return item
end function
