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
        form.search{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:0 0 .6rem}
        form.search input[type=search]{flex:1 1 16rem;min-width:0;padding:.3rem .5rem}
        .chosen{margin:.2rem 0 .8rem}
        .card label.pick{display:flex;gap:.3rem;align-items:center;padding:0 .45rem .4rem;font-size:.85rem;cursor:pointer}
        .card:has(input:checked){outline:3px solid #8a3ffc;outline-offset:1px}
        input[type=number]{width:5rem}
        button{padding:.3rem .7rem;border:1px solid #888;border-radius:.3rem;background:#fff;cursor:pointer}
        button.primary{background:#23262b;color:#fff;border-color:#23262b}
        kbd{font:.75rem ui-monospace,monospace;border:1px solid #aaa;border-radius:.2rem;padding:0 .25rem;margin-right:.25rem;background:#f0f0f0;color:#333}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.7rem;list-style:none;padding:0;margin:0}
        .card{background:#fff;border:1px solid #ddd;border-radius:.4rem;overflow:hidden;min-width:0}
        .card a{color:inherit;text-decoration:none;display:block}
        .card img{display:block;width:100%;aspect-ratio:1;object-fit:contain;background:#eee}
        .card .caption{padding:.3rem .45rem;font-size:.85rem;display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 .3rem}
        .card .caption>.muted{white-space:nowrap}
        .card .caption.path{display:block;padding-top:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .card .label{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .person{color:#8a3ffc}
        .swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:50%;border:1px solid rgba(0,0,0,.25);vertical-align:-.1rem}
        .swatch-black{background:#1b1b1b}.swatch-white{background:#fafaf8}.swatch-grey{background:#8e8e8e}
        .swatch-beige{background:#d9c7a0}.swatch-brown{background:#7b4a2a}.swatch-red{background:#c0272d}
        .swatch-pink{background:#e889b0}.swatch-orange{background:#ee7f22}.swatch-yellow{background:#f1d33c}
        .swatch-green{background:#3f8a3f}.swatch-blue{background:#4a78c2}.swatch-navy{background:#1f2a56}
        .swatch-purple{background:#7b3f9e}
        .swatch-multicolour{background:conic-gradient(#c0272d,#f1d33c,#3f8a3f,#4a78c2,#7b3f9e,#c0272d)}
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
        @media(max-width:759px){.review .large{max-height:42vh}}
        .notice{background:#fff7d6;border:1px solid #e8d27c;padding:.4rem .6rem;border-radius:.3rem;margin-bottom:.8rem}
        svg text{font:12px system-ui,sans-serif}
        svg.chart{display:block;max-width:560px}
        td.name{white-space:nowrap}
        @media(max-width:500px){svg.chart text{font-size:15px}}
        select{max-width:100%}
        .card form.inline{padding:0 .45rem .45rem;margin:0;gap:.3rem}
        .card form.inline select{flex:1 1 100%;min-width:0}
        .card.focused{outline:3px solid #3b7dd8;outline-offset:1px}
        .card.done{border-color:#8a3ffc}
        .card.done img{opacity:.55}
        .grid.strip{grid-template-columns:repeat(auto-fill,minmax(110px,1fr))}
        .status{color:#b00020;font-weight:600}
        .status:empty{display:none}
        """

    /// Keys, and label forms that post in the background and update the
    /// page in place. Everything also works without it: every control is a
    /// link or a form the server answers with a page.
    /// - A control with `data-key="K"` is clicked when K is pressed.
    /// - Review's grid: arrows pick a card; a label's key, `n` or Enter acts
    ///   on the picked card through its own form.
    /// - A form posted to /label asks for JSON (`reply` in
    ///   WardrobeSite+Labels); a card in the grid is updated from it, and
    ///   undo is offered; any other page is replaced by the page the form
    ///   would have gone to (its `main` swapped in, no reload).
    /// Text from the server is only ever set as text (textContent, value).
    static let script = """
        "use strict";
        (function () {
          function keyName(event) {
            switch (event.key) {
              case "ArrowLeft": return "left";
              case "ArrowRight": return "right";
              case "ArrowUp": return "up";
              case "ArrowDown": return "down";
              case "Enter": return "enter";
              default: return event.key.length === 1 ? event.key.toLowerCase() : "";
            }
          }

          function gridCards() { return Array.prototype.slice.call(document.querySelectorAll("[data-review=grid] li.card")); }

          function pick(card) {
            gridCards().forEach(function (other) { other.classList.toggle("focused", other === card); });
            if (card) card.scrollIntoView({ block: "nearest" });
          }

          function picked() {
            var card = document.querySelector("[data-review=grid] li.card.focused");
            if (!card) { card = gridCards()[0] || null; pick(card); }
            return card;
          }

          // Left and right step one card; up and down one row (the nearest card in the row above or below).
          function movePick(key, card) {
            var cards = gridCards(), index = cards.indexOf(card);
            if (key === "left" || key === "right") {
              var next = cards[index + (key === "left" ? -1 : 1)];
              if (next) pick(next);
              return;
            }
            var top = card.offsetTop, left = card.offsetLeft, best = null, bestScore = Infinity;
            cards.forEach(function (other) {
              var rows = other.offsetTop - top;
              if (key === "up" ? rows >= 0 : rows <= 0) return;
              var score = Math.abs(rows) * 10000 + Math.abs(other.offsetLeft - left);
              if (score < bestScore) { best = other; bestScore = score; }
            });
            if (best) pick(best);
          }

          function gridKey(key, card) {
            var form = card.querySelector("form");
            if (!form) return false;
            if (key === "enter") {
              form.requestSubmit(form.querySelector("button[value=confirm]"));
              return true;
            }
            var option = form.querySelector('option[data-key="' + CSS.escape(key) + '"]');
            if (!option) return false;
            form.elements.label.value = option.value;
            form.requestSubmit(form.querySelector("button[value=label]"));
            return true;
          }

          document.addEventListener("keydown", function (event) {
            if (event.ctrlKey || event.metaKey || event.altKey) return;
            var target = event.target;
            if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
            var key = keyName(event);
            // Enter on a focused button or link is the browser's own.
            if (!key || (key === "enter" && target && /^(BUTTON|A)$/.test(target.tagName))) return;
            var card = key === "u" || !gridCards().length ? null : picked();
            if (card) {
              if (key === "left" || key === "right" || key === "up" || key === "down") {
                event.preventDefault();
                movePick(key, card);
                return;
              }
              if (gridKey(key, card)) { event.preventDefault(); return; }
            }
            var control = document.querySelector('[data-key="' + CSS.escape(key) + '"]');
            if (!control || control.tagName === "OPTION") return;
            event.preventDefault();
            control.click();
          });

          function say(text) {
            var status = document.querySelector(".status");
            if (status) status.textContent = text;
          }

          // Puts the page the server would have answered in place of this one's content.
          function swap(url) {
            return fetch(url, { credentials: "same-origin" }).then(function (response) {
              if (!response.ok) throw new Error("The page did not load (" + response.status + ").");
              return response.text();
            }).then(function (text) {
              var page = new DOMParser().parseFromString(text, "text/html");
              var main = page.querySelector("main");
              if (!main) throw new Error("The page did not load.");
              document.querySelector("main").replaceWith(main);
              document.title = page.title;
              history.replaceState(null, "", url);
            });
          }

          // The undo notice above the grid, made here for an act on one of its cards: it names
          // the act the server kept (reply.undo), as the notice the server writes does.
          function offerUndo(form, reply) {
            var old = document.querySelector("main form.notice");
            if (old) old.remove();
            var notice = document.createElement("form");
            notice.className = "inline notice";
            notice.method = "post";
            notice.setAttribute("action", "/label");
            notice.dataset.card = String(reply.id);
            [["token", form.elements.token.value], ["id", String(reply.id)], ["action", "restore"],
             ["undo", reply.undo], ["back", form.elements.back.value]].forEach(function (field) {
              var input = document.createElement("input");
              input.type = "hidden";
              input.name = field[0];
              input.value = field[1];
              notice.appendChild(input);
            });
            var saved = document.createElement("span");
            saved.textContent = "Saved: " + reply.name + " is " + reply.label + ".";
            var button = document.createElement("button");
            button.type = "submit";
            button.dataset.key = "u";
            var kbd = document.createElement("kbd");
            kbd.textContent = "u";
            button.append(kbd, "Undo");
            notice.append(saved, button);
            var heading = document.querySelector("main h1");
            heading.after(notice);
          }

          function showOnCard(card, reply) {
            var label = card.querySelector(".label");
            label.textContent = reply.person ? reply.label + " ✎" : reply.label;
            label.classList.toggle("person", reply.person);
            card.classList.toggle("done", reply.person);
          }

          function answer(form, reply) {
            var card = form.closest("li.card[data-id]");
            if (card) {
              showOnCard(card, reply);
              offerUndo(form, reply);
              var cards = gridCards(), rest = cards.slice(cards.indexOf(card) + 1).concat(cards);
              pick(rest.find(function (other) { return !other.classList.contains("done"); }) || card);
              say("");
              return;
            }
            if (form.dataset.card) {
              var undone = document.querySelector('[data-review=grid] li.card[data-id="' + CSS.escape(form.dataset.card) + '"]');
              if (undone) {
                showOnCard(undone, reply);
                pick(undone);
                form.remove();
                return;
              }
            }
            return swap(reply.next);
          }

          document.addEventListener("submit", function (event) {
            var form = event.target;
            if (form.getAttribute("action") !== "/label" || !window.fetch) return;
            event.preventDefault();
            if (form.dataset.busy) return;
            form.dataset.busy = "1";
            var body = new URLSearchParams(new FormData(form, event.submitter));
            fetch("/label", { method: "POST", body: body, credentials: "same-origin",
                              headers: { "Accept": "application/json" } })
              .then(function (response) {
                if (!response.ok) return response.text().then(function (text) { throw new Error(text); });
                return response.json();
              })
              .then(function (reply) { return answer(form, reply); })
              .catch(function (error) { say(error.message); })
              .finally(function () { delete form.dataset.busy; });
          });

          if (gridCards().length) pick(gridCards()[0]);
        })();
        """
}
