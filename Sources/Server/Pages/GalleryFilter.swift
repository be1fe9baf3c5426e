import Foundation
import Wardrobe

/// The gallery's filters as the query string carries them, read once and
/// written back into every link, so a link changes one filter and keeps
/// the others. They are `wardrobe list`'s filters (`ImageFilter`): `q` is
/// `--path` (text anywhere in a path, or a shell pattern), `folder` is
/// `--folder`, `label` a name (`Coat`, `none`), `corrected` `yes` or `no`,
/// `min` and `max` a confidence in percent, `taken-after` and `taken-before`
/// `--taken-after` and `--taken-before`, `colour` palette names (`navy,blue`, each once:
/// `ListParameter`) as `--colour`. Review takes the same ones, so
/// "review these" is the gallery's link on another page.
struct GalleryFilter: Equatable {
    var label: Int?
    var corrected: Bool?
    var minimumPercent: Int?
    var maximumPercent: Int?
    /// `q`: the search box, over paths and folders.
    var search: String?
    var folder: String?
    /// `taken-after` and `taken-before`, as given (`2024-05-01`: what a date field sends) and as read.
    var takenAfter: GivenDate?
    var takenBefore: GivenDate?
    /// `colour`: the garment colours chosen (a person's, else the measured), as `list --colour`.
    var colours: [String]?

    struct GivenDate: Equatable {
        var text: String
        var date: Date
    }
    var order: Gallery.Order = .newest
    var after: Gallery.Cursor?
    /// Images per page.
    var pageSize = GalleryFilter.defaultPageSize

    static let defaultPageSize = 48
    /// The parameters that choose images, on the gallery and in review.
    static let choosing: Set = ["q", "folder", "label", "corrected", "min", "max", "taken-after", "taken-before", "colour"]
    /// The gallery's parameters: those and its order and paging.
    static let parameters = choosing.union(["sort", "per", "after"])

    init() {}

    /// The filters in `query`; a parameter outside `known` is a bad request (it was passed
    /// over, so `/?q=shirt` showed every image as if it had been searched).
    init(_ query: [String: String], known: Set<String> = GalleryFilter.parameters) throws {
        try SiteError.refuseUnknown(query, known: known)
        if let name = query["label"], !name.isEmpty {
            do { label = try LabelMatcher.index(of: name) } catch { throw SiteError.badRequest("\(error)") }
        }
        switch query["corrected"] ?? "" {
        case "yes": corrected = true
        case "no": corrected = false
        case "": break
        default: throw SiteError.badRequest("corrected is yes or no")
        }
        minimumPercent = try GalleryFilter.percent(query["min"], name: "min")
        maximumPercent = try GalleryFilter.percent(query["max"], name: "max")
        // Crossed bounds make no range: taken as they came, `?min=90&max=10` stopped the
        // whole server on Swift's `lowerBound <= upperBound` precondition, and a GET from any
        // page the browser showed could send it.
        if let low = minimumPercent, let high = maximumPercent, low > high {
            throw SiteError.badRequest("min is above max")
        }
        search = query["q"].flatMap { $0.isEmpty ? nil : $0 }
        if let folder = query["folder"], !folder.isEmpty {
            // A folder as paths are recorded, from the root: a relative one would be read from
            // the server's working folder, which the page cannot know.
            guard folder.hasPrefix("/") else { throw SiteError.badRequest("folder is a folder from the root, starting with /") }
            self.folder = folder
        }
        takenAfter = try GalleryFilter.date(query["taken-after"], name: "taken-after")
        takenBefore = try GalleryFilter.date(query["taken-before"], name: "taken-before")
        if let after = takenAfter, let before = takenBefore, after.date >= before.date {
            throw SiteError.badRequest("taken-after is not before taken-before")
        }
        if let names = query["colour"], !names.isEmpty {
            colours = try ListParameter.names(names, parameter: "colour", vocabulary: ColourSetter.names.count) {
                try ColourSetter.name($0)
            }
        }
        if let sort = query["sort"], !sort.isEmpty {
            guard let order = Gallery.Order(rawValue: sort) else {
                throw SiteError.badRequest("sort is one of " + Gallery.Order.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self.order = order
        }
        if let per = query["per"], !per.isEmpty {
            guard let value = Int(per), (1...200).contains(value) else { throw SiteError.badRequest("per is 1 to 200") }
            pageSize = value
        }
        if let cursor = query["after"], !cursor.isEmpty {
            guard let parsed = GalleryFilter.cursor(cursor) else { throw SiteError.badRequest("after is not a page position") }
            after = parsed
        }
    }

    /// Which images, as `wardrobe list` takes them.
    var imageFilter: ImageFilter {
        ImageFilter(label: label, corrected: corrected, path: search, folder: folder,
                    minConfidence: minimumPercent.map { Double($0) / 100 }, maxConfidence: maximumPercent.map { Double($0) / 100 },
                    takenAfter: takenAfter?.date, takenBefore: takenBefore?.date, colours: colours)
    }

    var query: Gallery.Query { Gallery.Query(filter: imageFilter, order: order, after: after, limit: pageSize) }

    /// The parameters that choose images, for any page's link.
    var choosingParameters: [(String, String?)] {
        [("q", search), ("folder", folder), ("label", label.map(LabelMatcher.name(of:))),
         ("corrected", corrected.map { $0 ? "yes" : "no" }),
         ("min", minimumPercent.map(String.init)), ("max", maximumPercent.map(String.init)),
         ("taken-after", takenAfter?.text), ("taken-before", takenBefore?.text),
         ("colour", colours?.joined(separator: ","))]
    }

    /// True when some filter leaves images out.
    var choosesSome: Bool { imageFilter.choosesSome }

    /// The gallery's link for these filters.
    var link: Link {
        Link("/", choosingParameters + [("sort", order == .newest ? nil : order.rawValue),
                                        ("per", pageSize == GalleryFilter.defaultPageSize ? nil : String(pageSize)),
                                        ("after", after.map(GalleryFilter.text))])
    }

    /// Review of the images these filters choose (review takes only those no person labelled).
    func review(_ extra: [(String, String?)] = []) -> Link {
        var chosen = self
        chosen.corrected = nil
        return Link("/review", extra + chosen.choosingParameters)
    }

    /// The same filters from the first page, with one change.
    func with(_ change: (inout GalleryFilter) -> Void) -> GalleryFilter {
        var copy = self
        copy.after = nil
        change(&copy)
        return copy
    }

    static func text(_ cursor: Gallery.Cursor) -> String { "\(cursor.confidence)_\(cursor.image)" }

    static func cursor(_ text: String) -> Gallery.Cursor? {
        let parts = text.split(separator: "_")
        guard parts.count == 2, let confidence = Double(parts[0]), (0...1).contains(confidence),
              let image = Int64(parts[1]) else { return nil }
        return Gallery.Cursor(confidence: confidence, image: image)
    }

    static func cursor(after item: Gallery.Item) -> Gallery.Cursor { item.cursor }

    /// A date as `list --taken-after` reads it; empty is none.
    private static func date(_ text: String?, name: String) throws -> GivenDate? {
        guard let text, !text.isEmpty else { return nil }
        do { return GivenDate(text: text, date: try DateArgument.parse(text)) } catch { throw SiteError.badRequest("\(name): \(error)") }
    }

    private static func percent(_ text: String?, name: String) throws -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), (0...100).contains(value) else {
            throw SiteError.badRequest("\(name) is a percentage from 0 to 100")
        }
        return value
    }
}
