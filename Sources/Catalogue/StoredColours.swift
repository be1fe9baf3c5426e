/// The garment's main colours as the catalogue keeps them (images.colour, colours and
/// colour_on_garment; see migrations/0014_garment_colour.sql): the garment's one palette name,
/// up to three names with their shares and CIELAB means, and whether a garment was found.
/// The catalogue knows the names only as text; Wardrobe knows what they mean.
public struct StoredColours: Sendable, Equatable {
    public struct Share: Sendable, Equatable {
        public var name: String
        public var share: Double
        public var lightness: Double
        public var a: Double
        public var b: Double

        public init(name: String, share: Double, lightness: Double, a: Double, b: Double) {
            self.name = name
            self.share = share
            self.lightness = lightness
            self.a = a
            self.b = b
        }
    }

    public var main: String
    public var shares: [Share]
    public var onGarment: Bool

    public init(main: String, shares: [Share], onGarment: Bool) {
        self.main = main
        self.shares = shares
        self.onGarment = onGarment
    }

    /// images.colours: "name share L a b" for each, separated by ";".
    var sharesText: String {
        shares.map { share in
            [share.name, format(share.share, 3), format(share.lightness, 2), format(share.a, 2), format(share.b, 2)]
                .joined(separator: " ")
        }.joined(separator: ";")
    }

    /// The most names images.colours holds (`GarmentColours` keeps three).
    static let mostShares = 3
    /// A share is of the garment's area; CIELAB of sRGB pixels has L* in 0...100 and a*, b*
    /// well within -128...128. Values past these (a share of 1e308, L* 500) are another
    /// program's, and `list` trapped turning such a share into a percentage.
    static let shareRange = 0.0...1.0
    static let lightnessRange = 0.0...100.0
    static let opponentRange = -128.0...128.0
    /// Shares are written to three places, so three of them can add up past 1 by 0.0015.
    static let mostTotalShare = 1.002

    /// From images.colours' text, or what is wrong with it: each item "name share L a b" with
    /// its numbers in their ranges, at most three, their shares adding up to at most the whole.
    static func shares(from text: String) -> Result<[Share], ShareError> {
        var shares: [Share] = []
        for item in text.split(separator: ";") {
            let fields = item.split(separator: " ")
            let numbers = fields.dropFirst().compactMap { Double($0) }
            guard fields.count == 5, numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
                return .failure(ShareError(item: String(item), reason: "which is not \"name share L a b\""))
            }
            let share = Share(name: String(fields[0]), share: numbers[0], lightness: numbers[1], a: numbers[2], b: numbers[3])
            guard shareRange.contains(share.share), lightnessRange.contains(share.lightness),
                  opponentRange.contains(share.a), opponentRange.contains(share.b) else {
                return .failure(ShareError(item: String(item), reason: "whose share is not 0 to 1 or whose L* a* b* "
                                           + "are not 0 to 100, -128 to 128, -128 to 128"))
            }
            shares.append(share)
        }
        guard shares.count <= mostShares else {
            return .failure(ShareError(item: text, reason: "\(shares.count) colours where wardrobe keeps at most \(mostShares)"))
        }
        guard shares.reduce(0, { $0 + $1.share }) <= mostTotalShare else {
            return .failure(ShareError(item: text, reason: "whose shares add up to more than the whole garment"))
        }
        return .success(shares)
    }

    struct ShareError: Error {
        let item: String
        let reason: String
        var detail: String { "colours holds \"\(item)\", \(reason)" }
    }

    /// `check`'s line on the images whose colours the readers refuse, nil when none: the text
    /// is read by `shares(from:)` itself, not matched in SQL, so that `check` finds what `show`
    /// and `list` refuse (it said 'no damage found' of them, where their error sends a person
    /// to `check`). `texts` runs the query that reads every image's colours.
    static func checkLine(_ texts: (String) throws -> [String]) rethrows -> String? {
        let count = try texts(measuredSQL).filter { text in
            if case .success = shares(from: text) { return false }
            return true
        }.count
        guard count > 0 else { return nil }
        return "images with colours that are not up to three \"name share L a b\" in their ranges: "
            + "\(count) \(count == 1 ? "row" : "rows") (changed by another program)"
    }

    private static let measuredSQL = "SELECT colours FROM images WHERE colours IS NOT NULL"
}

extension CatalogueRow {
    /// The garment's colours in the columns colour, colours and colour_on_garment, or nil
    /// when the image was never measured.
    func storedColours(_ main: Int32, _ shares: Int32, _ onGarment: Int32, row: @autoclosure () -> String) throws -> StoredColours? {
        guard !isNull(main), let list = try colourShares(shares, row: row()) else { return nil }
        return StoredColours(main: text(main), shares: list, onGarment: int(onGarment) != 0)
    }

    /// The shares of an images.colours column, or nil when the image was never measured.
    func colourShares(_ column: Int32, row: @autoclosure () -> String) throws -> [StoredColours.Share]? {
        guard !isNull(column) else { return nil }
        switch StoredColours.shares(from: text(column)) {
        case .success(let list): return list
        case .failure(let error): throw CatalogueError.strangeValue(path: location, detail: "\(row()): \(error.detail)")
        }
    }
}

private func format(_ value: Double, _ places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    // + 0 turns a rounded -0 into 0.
    return String((value * scale).rounded() / scale + 0)
}
