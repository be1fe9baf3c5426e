/// The style sheet and the script, compiled into the binary: no URL of the
/// server maps to a file.
enum StaticAssets {
    static let styleSheet = """
        *{box-sizing:border-box}
        body{margin:0;font:15px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;background:#f6f6f4}
        header{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:baseline;padding:.6rem 1rem;background:#23262b;color:#fff}
        header a{color:#fff;text-decoration:none}
        header strong{font-size:1.1rem;margin-right:.5rem}
        header nav{display:flex;flex-wrap:wrap;gap:.2rem .9rem}
        header nav a[aria-current]{text-decoration:underline}
        main{padding:1rem;max-width:1200px;margin:0 auto}
        h1{font-size:1.3rem;margin:.2rem 0 .8rem}
        h2{font-size:1.05rem;margin:1.2rem 0 .5rem}
        a{color:#0a58ca}
        .muted{color:#666}
        .filters{display:flex;flex-wrap:wrap;gap:.3rem;margin-bottom:.6rem}
        .chip{display:inline-block;padding:.15rem .55rem;border:1px solid #c8c8c8;border-radius:1rem;background:#fff;
          text-decoration:none;color:#1d1d1f;font-size:.85rem;white-space:nowrap}
        .chip[aria-current]{background:#23262b;color:#fff;border-color:#23262b}
        form.inline{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.4rem 0 .8rem}
        input,select,button{font:inherit}
        input[type=number]{width:5rem}
        button{padding:.3rem .7rem;border:1px solid #888;border-radius:.3rem;background:#fff;cursor:pointer}
        button.primary{background:#23262b;color:#fff;border-color:#23262b}
        kbd{font:.75rem ui-monospace,monospace;border:1px solid #aaa;border-radius:.2rem;padding:0 .25rem;margin-right:.25rem;background:#f0f0f0;color:#333}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.7rem;list-style:none;padding:0;margin:0}
        .card{background:#fff;border:1px solid #ddd;border-radius:.4rem;overflow:hidden;min-width:0}
        .card a{color:inherit;text-decoration:none;display:block}
        .card img{display:block;width:100%;aspect-ratio:1;object-fit:contain;background:#eee}
        .card .caption{padding:.3rem .45rem;font-size:.85rem;display:flex;justify-content:space-between;gap:.3rem}
        .card .caption.path{display:block;padding-top:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .card .label{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .person{color:#8a3ffc}
        .pager{display:flex;gap:1rem;margin:1rem 0}
        .image-layout{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
        @media(min-width:760px){.image-layout{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}}
        .large{display:block;width:100%;max-width:480px;height:auto;max-height:70vh;object-fit:contain;object-position:left top;border-radius:.4rem}
        figure{margin:.8rem 0}
        .top3{margin-bottom:.9rem}
        .tensor{width:168px;height:168px;image-rendering:pixelated;border-radius:.3rem}
        .bar{display:grid;grid-template-columns:8rem minmax(0,1fr) 3.5rem;gap:.4rem;align-items:center;margin:.2rem 0}
        .bar progress{width:100%;height:.8rem}
        table{border-collapse:collapse;width:100%;font-size:.88rem}
        th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #e3e3e3;vertical-align:top}
        .table-wrap{overflow-x:auto}
        .path{overflow-wrap:anywhere;font-family:ui-monospace,monospace;font-size:.82rem}
        .labels{display:flex;flex-wrap:wrap;gap:.35rem}
        .review{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem}
        @media(min-width:760px){.review{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
        .notice{background:#fff7d6;border:1px solid #e8d27c;padding:.4rem .6rem;border-radius:.3rem;margin-bottom:.8rem}
        svg text{font:12px system-ui,sans-serif}
        """

    /// Keys for review and the label forms; everything also works without it.
    static let script = """
        "use strict";
        document.addEventListener("keydown", function (event) {
          if (event.ctrlKey || event.metaKey || event.altKey) return;
          var target = event.target;
          if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
          var key = event.key === "ArrowLeft" ? "left" : event.key === "ArrowRight" ? "right"
                  : event.key === "Enter" ? "enter" : event.key.toLowerCase();
          var control = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
          if (!control) return;
          event.preventDefault();
          control.click();
        });
        """
}
