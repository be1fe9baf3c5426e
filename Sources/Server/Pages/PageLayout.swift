/// The frame of every page: head, navigation, and the main content.
enum PageLayout {
    /// Which page this is; the navigation marks its link, where it has one.
    enum Section: String { case gallery, review, stats, image, failure }

    static func page(title: String, section: Section, readOnly: Bool, _ content: HTML) -> HTML {
        let links: [(Section, String, String)] = [(.gallery, "/", "Gallery"), (.review, "/review", "Review"),
                                                   (.stats, "/stats", "Stats")]
        let navigation = links.map { item, path, name -> HTML in
            item == section ? "<a href=\"\(text: path)\" aria-current=\"page\">\(text: name)</a>" : "<a href=\"\(text: path)\">\(text: name)</a>"
        }
        let notice: HTML = readOnly ? "<span class=\"muted\">read-only</span>" : ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(text: title) · wardrobe</title>
            <link rel="stylesheet" href="/static/style.css">
            <script src="/static/keys.js" defer></script>
            </head><body>
            <header><strong><a href="/">wardrobe</a></strong><nav>\(navigation)</nav>\(notice)</header>
            <main>
            <p class="status" role="status"></p>
            \(content)
            </main></body></html>
            """
    }
}
