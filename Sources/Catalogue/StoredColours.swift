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

    /// From images.colours' text; nil names what is wrong with an item.
    static func shares(from text: String) -> Result<[Share], ShareError> {
        var shares: [Share] = []
        for item in text.split(separator: ";") {
            let fields = item.split(separator: " ")
            let numbers = fields.dropFirst().compactMap { Double($0) }
            guard fields.count == 5, numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
                return .failure(ShareError(item: String(item)))
            }
            shares.append(Share(name: String(fields[0]), share: numbers[0], lightness: numbers[1], a: numbers[2], b: numbers[3]))
        }
        return .success(shares)
    }

    struct ShareError: Error {
        let item: String
        var detail: String { "colours holds \"\(item)\", which is not \"name share L a b\"" }
    }
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
