internal import Catalogue
import Imaging

/// `wardrobe colour`: the garment's colour as a person sees it, kept as a person's label is.
/// Every act is kept with when and through which command; the latest wins and outranks the
/// measured colour in every query, page and export; no run (`reclassify`, `colours`, a
/// re-import) changes it, since measuring writes only the measured colour. Every image is
/// found before anything is written, and all are changed in one transaction.
public struct ColourSetter {
    /// One image's colour before and after.
    public struct Change: Sendable, Encodable {
        public var image: Int64
        public var path: String?
        /// The colour queries use before and after: the person's, else the measured (nil: neither).
        public var before: String?
        public var after: String?
        /// The measured colour, shown beside a person's.
        public var measured: String?
    }

    let catalogue: any CatalogueStore
    /// The command recorded with every act.
    let command: String

    init(catalogue: any CatalogueStore, command: String = "colour") {
        self.catalogue = catalogue
        self.command = command
    }

    /// The palette's names, in its order.
    public static let names = ClothingColour.allCases.map(\.rawValue)

    /// The palette name `text` gives, forgiving case and spaces, American spelling and a
    /// hyphen (`Gray`, `multi-color`); an error listing the palette otherwise.
    public static func name(_ text: String) throws(WardrobeError) -> String {
        var key = LabelMatcher.normalized(text)
        key = key.replacingOccurrences(of: "gray", with: "grey").replacingOccurrences(of: "color", with: "colour")
        if key == "multi" || key == "multicoloured" { key = "multicolour" }
        guard names.contains(key) else {
            throw .invalidArgument("unknown colour \(LabelMatcher.quoted(text, kind: "colour")); the colours are: \(names.joined(separator: ", "))")
        }
        return key
    }

    /// Gives the images `colour` (a palette name), or takes the person's colour back (nil).
    /// `places`, when given, says where each reference was read, as for `Labeller.apply`.
    public func apply(_ colour: String?, to references: [ImageReference], places: [String?] = []) throws -> [Change] {
        let name = try colour.map { text throws(WardrobeError) in try Self.name(text) }
        let images = try Labeller.resolve(references, places: places, in: catalogue, verb: "colour") { path in
            Labeller.pipe(forFolder: path, command: "colour \(name ?? "--clear")")
        }
        return try catalogue.setColour(images, name, command: command).map { outcome in
            Change(image: outcome.image.rawValue, path: try catalogue.paths(of: outcome.image).first?.path,
                   before: outcome.effectiveBefore, after: outcome.effectiveAfter, measured: outcome.measured)
        }
    }
}
