' Minimal HLS master playlist parsing: the variant streams with their
' bandwidth, resolution and codecs.


' Returns an array of { uri, attrs }; attrs maps BANDWIDTH, RESOLUTION and
' CODECS to their text.
function parseManifest(text as String) as Object
    lines = text.Tokenize(Chr(10))
    variants = []
    attrs = invalid
    for each line in lines
        if line.StartsWith("#EXT-X-STREAM-INF:")
            attrs = {}
            for each pair in line.Mid(18).Split(",")
                kv = pair.Split("=")
                attrs[kv[0]] = kv.Peek()
            end for
        else if attrs <> invalid and not line.StartsWith("#")
            variants.Push({ uri: line, attrs: attrs })
            attrs = invalid
        end if
    end for
    return variants
end function
