/// The names people give clothes' colours: a small fixed palette, as wardrobe apps ask for
/// when an item is added. `black`, `white` and `grey` are told apart by lightness alone (see
/// `GarmentColours`); every other name by the nearest of the reference colours below, by
/// CIEDE2000; `multicolour` is no reference but a garment where no one name covers most.
///
/// Where the boundaries come from: the references are the named colours of CSS Color
/// Module Level 4 (the X11 names every browser knows, a published and stable set with their
/// sRGB values), each given to the palette name a person would use for it (crimson and
/// maroon are red, khaki and tan beige, goldenrod (mustard) yellow, teal and turquoise blue,
/// lavender and plum purple). Two X11 names are given by their CIELAB hue rather than their
/// name: `brown` (#A52A2A, hue 33 degrees, the hue of crimson) is red and `rosybrown` (a
/// dusty pink) is pink; named brown, they took dark red garments to brown. A boundary between
/// two names lies where a colour is equally far, by CIEDE2000, from the nearest reference of
/// each; between blue and navy it is lightness (`GarmentColours.navyLightness`), because navy
/// is dark blue and photographed blues span both.
public enum ClothingColour: String, Sendable, CaseIterable, Codable {
    case black, white, grey, beige, brown, red, pink, orange, yellow, green, blue, navy, purple, multicolour

    /// The colours a chromatic name covers: CSS named colours (sRGB hex), grouped by name.
    static let cssReferences: [(ClothingColour, [String])] = [
        (.beige, ["#F5F5DC", "#FFF8DC", "#FFEBCD", "#FFE4C4", "#FFDEAD", "#F5DEB3", "#DEB887", "#D2B48C",
                  "#F0E68C", "#BDB76B", "#FFE4B5", "#FFEFD5", "#FFDAB9", "#EEE8AA"]),
        (.brown, ["#F4A460", "#CD853F", "#D2691E", "#8B4513", "#A0522D"]),
        (.red, ["#FF0000", "#DC143C", "#B22222", "#8B0000", "#800000", "#CD5C5C", "#FF6347", "#A52A2A"]),
        (.pink, ["#FFC0CB", "#FFB6C1", "#FF69B4", "#FF1493", "#C71585", "#DB7093", "#F08080", "#FA8072",
                 "#E9967A", "#FFE4E1", "#BC8F8F"]),
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

    /// The name's place in `allCases`, for counting by name in an array (a switch, not a
    /// search of `allCases`: colour naming asks it for every pixel it names).
    var index: Int {
        switch self {
        case .black: 0
        case .white: 1
        case .grey: 2
        case .beige: 3
        case .brown: 4
        case .red: 5
        case .pink: 6
        case .orange: 7
        case .yellow: 8
        case .green: 9
        case .blue: 10
        case .navy: 11
        case .purple: 12
        case .multicolour: 13
        }
    }

    /// Every reference as L*a*b*, with its name.
    static let references: [(colour: ClothingColour, lab: CIELab)] = cssReferences.flatMap { colour, hexes in
        hexes.map { (colour, CIELab(hex: $0)!) }
    }

    /// The name of the nearest reference colour (never black, white, grey or multicolour).
    static func nearestReference(to lab: CIELab) -> ClothingColour {
        var best = (colour: ClothingColour.blue, distance: Double.infinity)
        for reference in references {
            let distance = lab.difference(to: reference.lab)
            if distance < best.distance { best = (reference.colour, distance) }
        }
        return best.colour
    }

    /// True for two names a person uses for shades of one colour (a lighter or darker, a
    /// little warmer or cooler version): a garment holding both is one colour in two lights,
    /// not a multicoloured one. The pairs are neighbours in lightness (black, grey, white;
    /// navy, blue; brown, beige, white) or in hue (red, orange, yellow; red, pink, purple,
    /// blue).
    public func isShade(of other: ClothingColour) -> Bool {
        self == other || Self.shades.contains([self, other]) || Self.shades.contains([other, self])
    }

    private static let shades: Set<[ClothingColour]> = [
        [.black, .grey], [.grey, .white], [.black, .navy], [.navy, .blue], [.grey, .navy], [.grey, .blue],
        [.red, .pink], [.red, .brown], [.brown, .beige], [.beige, .white], [.beige, .grey], [.brown, .black],
        [.orange, .brown], [.yellow, .beige], [.red, .orange], [.orange, .yellow], [.pink, .white],
        [.pink, .purple], [.blue, .purple], [.navy, .purple],
    ]
}
