import Wardrobe

/// `/`: thumbnails with their effective label (a person's marked) and the
/// model's confidence and a swatch of the garment's colour; a search over paths
/// and folders; filters by folder, by label (with counts), by colour, by
/// correction and by confidence, which combine and
/// carry into review; three orders; keyset paging; thumbnails load lazily.
struct GalleryPage {
    let site: WardrobeSite
    let filter: GalleryFilter
    /// `undo`: after an act on the selected images, what names it to undo it (see `UndoLedger`).
    let undo: String?

    init(site: WardrobeSite, request: HTTPRequest) throws {
        self.site = site
        filter = try GalleryFilter(request.query, known: GalleryFilter.parameters.union(["undo"]))
        undo = request.query["undo"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func response() throws -> HTTPResponse {
        let (items, counts) = try site.catalogue.galleryPage(filter.query)
        let content: HTML = """
            <h1>\(text: title)</h1>
            \(search())
            \(labelChips(counts, shown: !narrowed))
            \(colourChips())
            \(otherFilters())
            \(site.undoNotice(undo) { _ in filter.link.url })
            \(items.isEmpty ? "<p class=\"muted\">No images match.</p>" : selectable(items))
            \(pager(items))
            """
        return .html(PageLayout.page(title: title, section: .gallery, readOnly: site.readOnly, content))
    }

    /// True when a filter other than the label leaves images out: a search, a folder, colours,
    /// who labelled, confidence or when taken.
    private var narrowed: Bool {
        filter.choosingParameters.contains { name, value in name != "label" && value != nil }
    }

    /// What the page shows: the label chosen, else all images; "Images" when only other
    /// filters choose (their chips say which), where "All images" stood over a search's few.
    private var title: String {
        filter.label.map(LabelMatcher.name(of:)) ?? (narrowed ? "Images" : "All images")
    }

    /// A chip per label, with the catalogue's count of each (kept, so a page costs no count)
    /// when no other filter is in force; under another filter the counts, which are of the whole
    /// catalogue, are left out: "Coat (30)" beside a search said what the chip would not show.
    private func labelChips(_ counts: [Int: Int], shown: Bool) -> HTML {
        func counted(_ name: String, _ count: Int) -> String { shown ? "\(name) (\(count))" : name }
        var chips: [HTML] = [chip(counted("All", counts.values.reduce(0, +)), filter.with { $0.label = nil },
                                  current: filter.label == nil)]
        for label in 0...LabelMatcher.noneLabel where label < LabelMatcher.noneLabel || (counts[label] ?? 0) > 0 {
            chips.append(chip(counted(LabelMatcher.name(of: label), counts[label] ?? 0), filter.with { $0.label = label },
                              current: filter.label == label))
        }
        return "<nav class=\"filters\" aria-label=\"Labels\">\(chips)</nav>"
    }

    /// A chip per palette colour, with its swatch: the images of that colour (a person's, else
    /// the measured one), as `list --colour` chooses them.
    private func colourChips() -> HTML {
        var chips: [HTML] = [chip("Any colour", filter.with { $0.colours = nil }, current: filter.colours == nil)]
        for name in ColourSetter.names {
            let target = filter.with { $0.colours = [name] }
            chips.append(filter.colours?.contains(name) == true
                ? "<a class=\"chip\" href=\"\(target.link)\" aria-current=\"true\">\(Swatch.html(name)) \(text: name)</a>"
                : "<a class=\"chip\" href=\"\(target.link)\">\(Swatch.html(name)) \(text: name)</a>")
        }
        return "<nav class=\"filters\" aria-label=\"Colours\">\(chips)</nav>"
    }

    private func otherFilters() -> HTML {
        let corrections: [HTML] = [
            chip("Any labeller", filter.with { $0.corrected = nil }, current: filter.corrected == nil),
            chip("Labelled by a person", filter.with { $0.corrected = true }, current: filter.corrected == true),
            chip("Model only", filter.with { $0.corrected = false }, current: filter.corrected == false),
        ]
        let orders: [(Gallery.Order, String)] = [(.newest, "Newest"), (.uncertain, "Least sure"),
                                                       (.confident, "Most sure")]
        let sorts = orders.map { order, name in
            chip(name, filter.with { $0.order = order }, current: filter.order == order)
        }
        return """
            <nav class="filters" aria-label="Who labelled">\(corrections)</nav>
            <nav class="filters" aria-label="Order">\(sorts)</nav>
            """
    }

    /// One form (a GET, so the filters are the page's URL): the search box over paths and
    /// folders and the confidence range, the other filters kept as hidden fields; then the
    /// folder in force, and review of the images chosen.
    private func search() -> HTML {
        var hidden: [HTML] = []
        for (name, value) in filter.choosingParameters + [("sort", filter.order == .newest ? nil : filter.order.rawValue),
                                                          ("per", filter.pageSize == GalleryFilter.defaultPageSize ? nil : String(filter.pageSize))]
        where !["q", "min", "max", "taken-after", "taken-before"].contains(name) {
            if let value { hidden.append("<input type=\"hidden\" name=\"\(text: name)\" value=\"\(text: value)\">") }
        }
        let minimum = filter.minimumPercent.map(String.init) ?? ""
        let maximum = filter.maximumPercent.map(String.init) ?? ""
        var chosen: [HTML] = []
        if let folder = filter.folder {
            chosen.append("<a class=\"chip\" href=\"\(filter.with { $0.folder = nil }.link)\" aria-current=\"true\" "
                          + "title=\"show every folder\">In \(text: folder) ×</a>")
        }
        if let search = filter.search {
            chosen.append("<a class=\"chip\" href=\"\(filter.with { $0.search = nil }.link)\" aria-current=\"true\" "
                          + "title=\"clear the search\">“\(text: search)” ×</a>")
        }
        chosen.append("<a class=\"chip review-these\" href=\"\(filter.review())\">Review these</a>")
        return """
            <form class="search" method="get" action="/" role="search">\(hidden)
            <input type="search" name="q" value="\(text: filter.search)" placeholder="Search paths and folders" \
            aria-label="Search paths and folders">
            <label>Confidence from <input type="number" name="min" min="0" max="100" value="\(text: minimum)"></label>
            <label>to <input type="number" name="max" min="0" max="100" value="\(text: maximum)"> %</label>
            <label>Taken from <input type="date" name="taken-after" value="\(text: filter.takenAfter?.text)"></label>
            <label>to <input type="date" name="taken-before" value="\(text: filter.takenBefore?.text)"></label>
            <button type="submit">Search</button></form>
            <nav class="filters" aria-label="Chosen">\(chosen)</nav>
            """
    }

    /// The grid, with a checkbox on each card and the form they belong to (none when read-only).
    private func selectable(_ items: [Gallery.Item]) -> HTML {
        guard !site.readOnly else { return GalleryPage.grid(items) }
        return SelectionForms.bar(token: site.guardian.token, back: filter.link.url) + GalleryPage.grid(items, extra: SelectionForms.checkbox)
    }

    private func pager(_ items: [Gallery.Item]) -> HTML {
        var links: [HTML] = []
        if filter.after != nil { links.append("<a href=\"\(filter.with { _ in }.link)\">First page</a>") }
        if items.count == filter.pageSize, let last = items.last {
            var next = filter
            next.after = GalleryFilter.cursor(after: last)
            links.append("<a href=\"\(next.link)\" rel=\"next\">Next page</a>")
        }
        return "<nav class=\"pager\">\(links)</nav>"
    }

    private func chip(_ text: String, _ target: GalleryFilter, current: Bool) -> HTML {
        current ? "<a class=\"chip\" href=\"\(target.link)\" aria-current=\"true\">\(text: text)</a>"
            : "<a class=\"chip\" href=\"\(target.link)\">\(text: text)</a>"
    }

    /// Cards for images; shared with review's grid.
    static func grid(_ items: [Gallery.Item], extra: (Gallery.Item) -> HTML = { _ in "" }) -> HTML {
        let cards = items.map { item -> HTML in
            let label = LabelMatcher.name(of: item.effectiveLabel)
            let name = item.path.map(fileName) ?? "image \(item.image)"
            let mark: HTML = item.correctedLabel != nil
                ? "<span class=\"label person\" title=\"labelled by a person\">\(text: label) ✎</span>"
                : "<span class=\"label\">\(text: label)</span>"
            // The confidence is the model's in its own label: beside a person's other label it
            // names that label, as list's "Coat (model: Shirt)" does, or it read as sureness of Coat.
            let confidence: HTML = item.correctedLabel.map { $0 != item.label } == true
                ? "<span class=\"model\" title=\"the model's label and its confidence\">\(text: LabelMatcher.name(of: item.label)) "
                    + "\(text: percent(item.confidence))</span>"
                : "\(text: percent(item.confidence))"
            return """
                <li class="card" data-id="\(item.image)"><a href="/image/\(item.image)">
                <img src="/thumb/\(text: item.sha256)" loading="lazy" width="150" height="150" alt="\(text: label): \(text: name)">
                <div class="caption">\(mark)<span class="muted">\(item.colour.map { Swatch.html($0, byPerson: item.colourByPerson) + " " } ?? "")\
                \(confidence)</span></div>
                <div class="caption muted path">\(text: name)</div></a>\(extra(item))</li>
                """
        }
        return "<ul class=\"grid\">\(cards)</ul>"
    }

    static func fileName(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        let name = path[path.utf8.index(after: slash)...]
        return name.isEmpty ? path : String(name)
    }

    static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }
}
