/// The names people give clothes' colours: a small fixed palette, as wardrobe apps ask for
/// when an item is added. A colour is named by the nearest of the reference colours below,
/// by CIEDE2000; `multicolour` is no reference but a garment where no one name covers most.
///
/// Where the boundaries come from: the references are the named colours of CSS Color
/// Module Level 4 (the X11 names every browser knows, a published and stable set of 130
/// colours with their sRGB values), each given to the palette name a person would use for
/// it (crimson and maroon are red, khaki and tan beige, goldenrod (mustard) yellow, teal and turquoise blue, lavender
/// and plum purple, the whites and near-whites white). A boundary between two names lies
/// where a colour is equally far, by CIEDE2000, from the nearest reference of each. Nothing
/// was tuned on photos: the garment-colour labels in bench/ measure the result.
public enum ClothingColour: String, Sendable, CaseIterable, Codable {
    case black, white, grey, beige, brown, red, pink, orange, yellow, green, blue, navy, purple, multicolour

    /// The colours a name covers: CSS named colours (sRGB hex), grouped by name.
    static let cssReferences: [(ClothingColour, [String])] = [
        (.black, ["#000000"]),
        (.white, ["#FFFFFF", "#FFFAFA", "#F0FFF0", "#F5FFFA", "#F0FFFF", "#F0F8FF", "#F8F8FF", "#F5F5F5",
                  "#FFF5EE", "#FDF5E6", "#FFFAF0", "#FFFFF0", "#FAEBD7", "#FAF0E6", "#FFF0F5"]),
        (.grey, ["#DCDCDC", "#D3D3D3", "#C0C0C0", "#A9A9A9", "#808080", "#696969", "#778899", "#708090",
                 "#2F4F4F"]),
        (.beige, ["#F5F5DC", "#FFF8DC", "#FFEBCD", "#FFE4C4", "#FFDEAD", "#F5DEB3", "#DEB887", "#D2B48C",
                  "#F0E68C", "#BDB76B", "#FFE4B5", "#FFEFD5", "#FFDAB9", "#EEE8AA"]),
        (.brown, ["#BC8F8F", "#F4A460", "#CD853F", "#D2691E", "#8B4513", "#A0522D", "#A52A2A"]),
        (.red, ["#FF0000", "#DC143C", "#B22222", "#8B0000", "#800000", "#CD5C5C", "#FF6347"]),
        (.pink, ["#FFC0CB", "#FFB6C1", "#FF69B4", "#FF1493", "#C71585", "#DB7093", "#F08080", "#FA8072",
                 "#E9967A", "#FFE4E1"]),
        (.orange, ["#FFA500", "#FF8C00", "#FF7F50", "#FF4500", "#FFA07A"]),
        (.yellow, ["#FFFF00", "#FFD700", "#FFFFE0", "#FFFACD", "#FAFAD2", "#DAA520", "#B8860B"]),
        (.green, ["#008000", "#006400", "#228B22", "#2E8B57", "#3CB371", "#8FBC8F", "#90EE90", "#98FB98",
                  "#00FF7F", "#00FA9A", "#7CFC00", "#7FFF00", "#00FF00", "#32CD32", "#9ACD32", "#ADFF2F",
                  "#6B8E23", "#556B2F", "#808000", "#66CDAA", "#7FFFD4"]),
        (.blue, ["#0000FF", "#0000CD", "#4169E1", "#1E90FF", "#00BFFF", "#6495ED", "#4682B4", "#B0C4DE",
                 "#ADD8E6", "#87CEEB", "#87CEFA", "#B0E0E6", "#5F9EA0", "#008080", "#008B8B", "#20B2AA",
                 "#40E0D0", "#48D1CC", "#00CED1", "#00FFFF", "#E0FFFF", "#AFEEEE"]),
        (.navy, ["#000080", "#00008B", "#191970", "#483D8B"]),
        (.purple, ["#800080", "#8B008B", "#4B0082", "#9400D3", "#9932CC", "#BA55D3", "#DA70D6", "#EE82EE",
                   "#DDA0DD", "#D8BFD8", "#E6E6FA", "#9370DB", "#8A2BE2", "#663399", "#6A5ACD", "#7B68EE",
                   "#FF00FF"]),
    ]

    /// Every reference as L*a*b*, with its name.
    static let references: [(colour: ClothingColour, lab: CIELab)] = cssReferences.flatMap { colour, hexes in
        hexes.map { (colour, CIELab(hex: $0)!) }
    }

    /// The name of the nearest reference colour.
    public static func named(_ lab: CIELab) -> ClothingColour {
        var best = (colour: ClothingColour.grey, distance: Double.infinity)
        for reference in references {
            let distance = lab.difference(to: reference.lab)
            if distance < best.distance { best = (reference.colour, distance) }
        }
        return best.colour
    }
}
