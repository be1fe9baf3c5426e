import Wardrobe

/// The gallery's filters as the query string carries them, read once and
/// written back into every link, so a link changes one filter and keeps
/// the others. `label` is a name (`Coat`, `none`), confidence in percent.
struct GalleryFilter: Equatable {
    var label: Int?
    var corrected: Bool?
    var minimumPercent: Int?
    var maximumPercent: Int?
    var order: Gallery.Order = .newest
    var after: Gallery.Cursor?
    /// Images per page.
    var pageSize = GalleryFilter.defaultPageSize

    static let defaultPageSize = 48

    init() {}

    init(_ query: [String: String]) throws {
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

    var query: Gallery.Query {
        Gallery.Query(filter: ImageFilter(label: label, corrected: corrected, minConfidence: minimumPercent.map { Double($0) / 100 },
                                          maxConfidence: maximumPercent.map { Double($0) / 100 }),
                      order: order, after: after, limit: pageSize)
    }

    /// The gallery's link for these filters.
    var link: Link {
        Link("/", [("label", label.map(LabelMatcher.name(of:))),
                   ("corrected", corrected.map { $0 ? "yes" : "no" }),
                   ("min", minimumPercent.map(String.init)), ("max", maximumPercent.map(String.init)),
                   ("sort", order == .newest ? nil : order.rawValue),
                   ("per", pageSize == GalleryFilter.defaultPageSize ? nil : String(pageSize)),
                   ("after", after.map(GalleryFilter.text))])
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

    private static func percent(_ text: String?, name: String) throws -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = Int(text), (0...100).contains(value) else {
            throw SiteError.badRequest("\(name) is a percentage from 0 to 100")
        }
        return value
    }
}
