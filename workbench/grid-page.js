// The workbench's grid: draws only the rows in view (and a margin), fetched from the server in pages of
// PAGE rows, so 20,000 rows scroll and select as fast as 20. The server says what each cell shows
// (display value, error message, conditional background, checkbox or dropdown); this file only draws it.
(function () {
  var PAGE = 200;
  var ROW_HEIGHT = 23; // 22 px cell + its bottom border
  var OVERSCAN = 15;
  var shape = null;
  var pages = new Map(); // page index -> rows of cells, for the current shape's sheet
  // The pages drawn before the last change, shown until their fresh copies arrive: a change redraws values in
  // place, as Sheets does, rather than blanking every cell for a moment.
  var stalePages = new Map();
  var loading = new Map(); // page index -> promise
  var failures = new Map(); // page index -> the last wait before asking again for a page that failed
  var retrying = new Set(); // pages waiting to be asked again
  var generation = 0; // bumped whenever the cells may have changed: older answers are dropped
  var offsets = null; // offsets[r] = top of row r+1, in px; offsets[maxRows] = total height
  var hiddenColumns = new Set();
  var shownToasts = null; // toasts already seen; null until the first shape arrives
  var scheduled = false;
  // Entries sent and not yet answered, by 'sheet!A1': drawn in their cells meanwhile, so nothing typed seems lost.
  var pending = new Map();
  // The rows drawn last, by row number, with what each was drawn from: a draw rebuilds only the rows whose
  // cells, entries or selection changed, as typing at full speed draws after every Enter (a full rebuild of
  // every row in view cost 48 ms a draw, most of the time 200 typed formulas took). Dropped by layout(), which
  // every other sheet and every change of rows or columns goes through.
  var drawnRows = new Map(); // row -> { tr, from: [...] }
  var rowsBuilt = 0; // rows built since the page loaded, for the test that holds a draw to the rows it changes

  var scroller = document.getElementById('sheet-scroll');
  var cols = document.getElementById('grid-cols');
  var head = document.getElementById('grid-head');
  var body = document.getElementById('grid-body');
  var grid = document.getElementById('grid');
  var formula = document.getElementById('formula');
  var cellName = document.getElementById('cell-name');
  var cellError = document.getElementById('cell-error');

  function columnName(index) {
    var name = '';
    for (var n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    return name;
  }

  function position(a1) {
    var m = /^([A-Z]+)(\d+)$/.exec(a1);
    var column = 0;
    for (var i = 0; i < m[1].length; i++) column = column * 26 + (m[1].charCodeAt(i) - 64);
    return { row: Number(m[2]), column: column };
  }

  function selectionBox(selection) {
    var parts = selection.split(':');
    var a = position(parts[0]),
      b = position(parts[1] || parts[0]);
    return { top: Math.min(a.row, b.row), bottom: Math.max(a.row, b.row), left: Math.min(a.column, b.column), right: Math.max(a.column, b.column) };
  }

  function call(method, url, body) {
    return fetch(url, { method: method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined })
      .then(function (response) {
        return response.json();
      })
      .then(function (data) {
        if (data?.error) throw new Error(data.error);
        return data;
      });
  }

  function toast(text) {
    var box = document.getElementById('toast');
    box.textContent = text;
    box.style.display = 'block';
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () {
      box.style.display = 'none';
    }, 4000);
  }

  /** A new shape; `changed` says the cells may differ from the pages held. */
  function setShape(next, changed) {
    var otherSheet = !shape || shape.sheet !== next.sheet;
    var resized =
      !shape ||
      otherSheet ||
      shape.maxRows !== next.maxRows ||
      shape.maxColumns !== next.maxColumns ||
      String(shape.columnWidths) !== String(next.columnWidths) ||
      String(shape.hiddenRows) !== String(next.hiddenRows) ||
      JSON.stringify(shape.tallRows) !== JSON.stringify(next.tallRows) ||
      String(shape.hiddenColumns) !== String(next.hiddenColumns);
    if (otherSheet) stalePages.clear();
    else if (changed)
      pages.forEach(function (rows, index) {
        stalePages.set(index, rows);
      });
    if (changed || otherSheet) {
      pages.clear();
      loading.clear();
      generation++;
    }
    shape = next;
    if (resized) layout();
    // Another sheet opens at its top-left, as Sheets opens one, not at the scroll the last sheet left.
    if (otherSheet) {
      scroller.scrollTop = 0;
      scroller.scrollLeft = 0;
    }
    renderTabs();
    renderMenu();
    // A toast shows once, when it happens: those made before this page loaded are history, not news.
    if (shownToasts === null) shownToasts = next.toasts.length;
    else if (shape.toasts.length > shownToasts) toast(shape.toasts[shape.toasts.length - 1]);
    shownToasts = shape.toasts.length;
    // An answer that changed nothing drawn (a selection's echo) waits for the next frame with the others.
    if (changed || otherSheet || resized) draw();
    else scheduleDraw();
  }

  /** Row offsets and the column header, after the sheet's size or hidden rows changed. */
  function layout() {
    drawnRows = new Map();
    var hidden = new Set(shape.hiddenRows);
    offsets = new Float64Array(shape.maxRows + 1);
    for (var r = 0; r < shape.maxRows; r++) {
      var height = hidden.has(r + 1) ? 0 : ROW_HEIGHT * (shape.tallRows[r + 1] || 1);
      offsets[r + 1] = offsets[r] + height;
    }
    hiddenColumns = new Set(shape.hiddenColumns);
    var tableWidth = 46;
    var colNodes = [document.createElement('col')];
    colNodes[0].style.width = '46px';
    var tr = document.createElement('tr');
    tr.setAttribute('role', 'row');
    tr.setAttribute('aria-rowindex', '1');
    var corner = document.createElement('th');
    corner.className = 'row';
    corner.setAttribute('role', 'columnheader');
    corner.setAttribute('aria-colindex', '1');
    // Named so the corner is not an empty header: the column of row numbers under it.
    corner.setAttribute('aria-label', 'Row');
    tr.appendChild(corner);
    for (var c = 1; c <= shape.maxColumns; c++) {
      var col = document.createElement('col');
      col.style.width = widthOf(c) + 'px';
      tableWidth += widthOf(c);
      colNodes.push(col);
      var th = document.createElement('th');
      th.textContent = columnName(c - 1);
      th.setAttribute('role', 'columnheader');
      th.setAttribute('aria-colindex', String(c + 1));
      if (hiddenColumns.has(c)) th.className = 'hidden-column';
      else if (hiddenColumns.has(c - 1)) th.className = 'after-hidden';
      tr.appendChild(th);
    }
    cols.replaceChildren.apply(cols, colNodes);
    // table-layout: fixed honours the columns' widths only when the table's own width is set.
    cols.parentNode.style.width = tableWidth + 'px';
    head.replaceChildren(tr);
    // Rows are drawn only in view: the counts and each row's and cell's index tell a screen reader where it is.
    grid.setAttribute('aria-rowcount', String(shape.maxRows + 1));
    grid.setAttribute('aria-colcount', String(shape.maxColumns + 1));
  }

  /** A column's width as the sheet sets it (setColumnWidth, autoResizeColumns): the add-in sizes its time column to fit. */
  function widthOf(column) {
    if (hiddenColumns.has(column)) return 0;
    return shape.columnWidths?.[column - 1] || 100;
  }

  /** The first row whose bottom is below y (binary search over offsets). */
  function rowAt(y) {
    var lo = 1,
      hi = shape.maxRows;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (offsets[mid] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * One draw for all the changes made before the next frame (a draw rebuilds every changed row in view): answers and pages
   * that arrive together, and the entries of a batch, draw once. The timer draws where no frame comes (a page in the
   * background); whichever runs first draws, and a draw made meanwhile makes both unneeded.
   */
  function scheduleDraw() {
    if (scheduled) return;
    scheduled = true;
    var run = function () {
      if (scheduled) draw();
    };
    requestAnimationFrame(run);
    setTimeout(run, 100);
  }

  function ensurePage(index) {
    if (pages.has(index) || loading.has(index)) return;
    var asked = generation;
    var sheet = shape.sheet;
    var promise = call('GET', '/api/grid/cells?sheet=' + encodeURIComponent(sheet) + '&row=' + (index * PAGE + 1) + '&count=' + PAGE)
      .then(function (page) {
        if (asked !== generation || !shape || shape.sheet !== sheet) return;
        loading.delete(index);
        failures.delete(index);
        pages.set(index, keepUnchanged(page.rows, stalePages.get(index)));
        stalePages.delete(index);
        scheduleDraw();
      })
      .catch(function (e) {
        loading.delete(index);
        toast(e.message);
        // Asked again after a pause (doubling, at most 30 s): rows left blank until a scroll would look empty.
        var wait = Math.min(30000, (failures.get(index) || 500) * 2);
        failures.set(index, wait);
        retrying.add(index);
        setTimeout(function () {
          retrying.delete(index);
          scheduleDraw();
        }, wait);
      });
    loading.set(index, promise);
  }

  /**
   * A page fetched again after a change, its cells that read as before replaced by the ones already drawn: rows
   * are redrawn by the identity of their cells (rowSources), and an entry changes a few cells of the 200 rows.
   */
  function keepUnchanged(rows, before) {
    if (!before) return rows;
    return rows.map(function (cells, r) {
      var old = before[r];
      if (!cells || !old) return cells;
      var same = true;
      var kept = cells.map(function (cell, c) {
        var was = old[c];
        if (cell === was || (cell && was && JSON.stringify(cell) === JSON.stringify(was))) return was;
        same = false;
        return cell;
      });
      return same && kept.length === old.length ? old : kept;
    });
  }

  function cellAt(row, column) {
    var index = Math.floor((row - 1) / PAGE);
    var page = pages.get(index) || stalePages.get(index);
    if (!page) return null;
    var cells = page[(row - 1) % PAGE];
    return cells ? cells[column - 1] || null : null;
  }

  function drawCell(td, cell, row, column, box, active) {
    var a1 = columnName(column - 1) + row;
    td.dataset.a1 = a1;
    var classes = [];
    var typed = pending.get(shape.sheet + '!' + a1);
    if (typed) {
      td.textContent = typed.input;
      td.className = 'pending' + (a1 === active ? ' active' : '');
      return;
    }
    // Kept in the row (a cell left out would shift the rest into the wrong column), drawn at no width.
    if (hiddenColumns.has(column)) classes.push('hidden-column');
    if (cell) {
      if (cell.f) td.dataset.formula = cell.f;
      var tip = [cell.error, cell.note].filter(Boolean).join('\n');
      if (tip) td.title = tip;
      if (cell.bg) td.style.background = cell.bg;
      if (cell.bold) classes.push('bold');
      if (cell.error) classes.push('formula-error');
      else if (cell.align === 'right') classes.push('number');
      else if (cell.align === 'center') classes.push('center');
      if (cell.control && cell.control.kind === 'checkbox') {
        classes.push('checkbox');
        var box1 = document.createElement('input');
        box1.type = 'checkbox';
        box1.checked = cell.control.checked;
        box1.setAttribute('aria-label', 'Checkbox ' + a1);
        box1.tabIndex = -1; // the grid is one tab stop: Tab leaves it rather than visiting each control
        td.appendChild(box1);
      } else if (cell.control && cell.control.kind === 'list') {
        classes.push('dropdown');
        var chip = document.createElement('span');
        chip.className = 'chip';
        chip.textContent = cell.d;
        var arrow = document.createElement('button');
        arrow.type = 'button';
        arrow.className = 'arrow';
        arrow.textContent = '▾';
        arrow.setAttribute('aria-label', 'Choose a value for ' + a1);
        arrow.tabIndex = -1;
        td.appendChild(chip);
        td.appendChild(arrow);
      } else td.textContent = cell.d;
    }
    if (a1 === active) classes.push('active');
    if (box && row >= box.top && row <= box.bottom && column >= box.left && column <= box.right) classes.push('selected');
    if (classes.length) td.className = classes.join(' ');
  }

  /** Draws the rows in view; asks for the pages that hold them. */
  function draw() {
    if (!shape) return;
    scheduled = false;
    var top = scroller.scrollTop;
    var height = scroller.clientHeight || 600;
    var first = Math.max(1, rowAt(top) - OVERSCAN);
    var last = Math.min(shape.maxRows, rowAt(top + height) + OVERSCAN);
    var firstPage = Math.floor((first - 1) / PAGE),
      lastPage = Math.floor((last - 1) / PAGE);
    for (var p = firstPage; p <= lastPage; p++) ensurePage(p);
    // Once what is in view is here, the pages either side, so scrolling on does not wait for the server
    // (asked earlier, they would queue ahead of the page in view).
    if (loading.size === 0) {
      if (firstPage > 0) ensurePage(firstPage - 1);
      if ((lastPage + 1) * PAGE < shape.maxRows) ensurePage(lastPage + 1);
    }
    var hidden = new Set(shape.hiddenRows);
    var box = selectionBox(shape.selection);
    var active = position(shape.active);
    var rows = new Map();
    var fresh = [];
    for (var r = first; r <= last; r++) {
      var from = rowSources(r, hidden, box, active);
      var old = drawnRows.get(r);
      var tr = old && sameSources(old.from, from) ? old.tr : drawRow(r, hidden, box);
      if (tr !== old?.tr) fresh.push(tr);
      rows.set(r, { tr: tr, from: from });
    }
    var sameRange = drawnRows.size === rows.size && drawnRows.has(first) && drawnRows.has(last);
    if (sameRange && body.children.length === rows.size + 2) {
      // The same rows in view: only the changed ones are swapped, so the others keep their layout.
      rows.forEach(function (row, r) {
        var before = drawnRows.get(r).tr;
        if (before !== row.tr) body.replaceChild(row.tr, before);
      });
    } else {
      var nodes = [spacer(offsets[first - 1])];
      rows.forEach(function (row) {
        nodes.push(row.tr);
      });
      nodes.push(spacer(offsets[shape.maxRows] - offsets[last]));
      body.replaceChildren.apply(body, nodes);
    }
    drawnRows = rows;
    // The grid holds the focus and names the active cell, one tab stop as the grid pattern has it (ARIA APG);
    // an active cell scrolled out of the drawn rows is named by none.
    if (document.getElementById('grid-cell-' + shape.active)) grid.setAttribute('aria-activedescendant', 'grid-cell-' + shape.active);
    else grid.removeAttribute('aria-activedescendant');
    titleClipped(fresh);
    showActive();
  }

  /**
   * Everything a row is drawn from, compared by identity: each cell as the server sent it (a page is replaced,
   * never changed in place), each entry on its way, whether the row is hidden or tall, and where the active cell
   * and the selection cross it. Column widths and hidden columns go through layout(), which drops every row.
   */
  function rowSources(r, hidden, box, active) {
    var inBox = r >= box.top && r <= box.bottom;
    var from = [hidden.has(r), shape.tallRows[r] || 1, active.row === r ? active.column : 0, inBox ? box.left : 0, inBox ? box.right : 0];
    for (var c = 1; c <= shape.maxColumns; c++) {
      from.push(cellAt(r, c), pending.size ? pending.get(shape.sheet + '!' + columnName(c - 1) + r) || null : null);
    }
    return from;
  }
  function sameSources(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function drawRow(r, hidden, box) {
    rowsBuilt++;
    var tr = document.createElement('tr');
    tr.setAttribute('role', 'row');
    tr.setAttribute('aria-rowindex', String(r + 1));
    var lines = shape.tallRows[r] || 1;
    tr.style.height = ROW_HEIGHT * lines + 'px';
    if (hidden.has(r)) tr.className = 'hidden';
    else if (lines > 1) tr.className = 'tall';
    var th = document.createElement('th');
    th.className = 'row';
    th.textContent = String(r);
    th.setAttribute('role', 'rowheader');
    th.setAttribute('aria-colindex', '1');
    tr.appendChild(th);
    for (var c = 1; c <= shape.maxColumns; c++) {
      var td = document.createElement('td');
      drawCell(td, cellAt(r, c), r, c, box, shape.active);
      td.setAttribute('role', 'gridcell');
      td.setAttribute('aria-colindex', String(c + 1));
      td.setAttribute('aria-selected', String(r >= box.top && r <= box.bottom && c >= box.left && c <= box.right));
      if (td.dataset.a1 === shape.active) td.id = 'grid-cell-' + shape.active;
      tr.appendChild(td);
    }
    return tr;
  }

  /**
   * A cell's text wider than its column is cut, as in Sheets; its full text is then its tooltip, so a name or a
   * time is never left unreadable. One layout for the rows just drawn (read after every write above); a row kept from the last draw keeps its tooltips.
   */
  function titleClipped(rows) {
    var cells = [];
    rows.forEach(function (tr) {
      cells.push.apply(cells, tr.querySelectorAll('td[data-a1]'));
    });
    var clipped = [];
    for (var i = 0; i < cells.length; i++) {
      var td = cells[i];
      if (!td.textContent || td.classList.contains('hidden-column')) continue;
      var chip = td.querySelector('.chip');
      var box = chip || td;
      if (box.scrollWidth > box.clientWidth + 1) clipped.push(td);
    }
    clipped.forEach(function (td) {
      var full = td.textContent.replace(/▾$/, '');
      if (!td.title) td.title = full;
      else if (td.title.indexOf(full) < 0) td.title = full + '\n' + td.title;
    });
  }

  function spacer(px) {
    var tr = document.createElement('tr');
    tr.className = 'spacer';
    tr.setAttribute('role', 'presentation');
    var td = document.createElement('td');
    td.setAttribute('role', 'presentation');
    td.colSpan = shape.maxColumns + 1;
    td.style.height = px + 'px';
    tr.appendChild(td);
    return tr;
  }

  /** The bar: the active cell's name, its formula (or value), and its error message when it has one. */
  function showActive() {
    var at = position(shape.active);
    var cell = cellAt(at.row, at.column);
    if (cellName.textContent !== shape.active || showActive.cell !== cell) {
      cellName.textContent = shape.active;
      if (document.activeElement !== formula && !editing) formula.value = cell ? cell.f || cell.d : '';
      cellError.textContent = cell?.error ? cell.error : '';
      cellError.title = cellError.textContent;
      showActive.cell = cell;
    }
  }

  function renderTabs() {
    var tabs = document.getElementById('tabs');
    tabs.replaceChildren.apply(
      tabs,
      shape.sheets.map(function (name) {
        var button = document.createElement('button');
        button.textContent = name;
        button.setAttribute('role', 'tab');
        button.setAttribute('aria-selected', String(name === shape.sheet));
        // No cell named: the server selects the sheet's top-left cell a person can see (not a hidden A1).
        button.addEventListener('click', function () {
          // Keys go to the sheet's cells next, as in Sheets, not to this button (a Delete would do nothing).
          button.blur();
          selections++;
          act('/api/grid/select', { sheet: name }, false);
        });
        return button;
      }),
    );
  }

  function renderMenu() {
    var menu = document.getElementById('menu');
    if (menu.dataset.items === JSON.stringify(shape.menu)) return;
    menu.dataset.items = JSON.stringify(shape.menu);
    menu.replaceChildren.apply(
      menu,
      shape.menu.map(function (item) {
        var button = document.createElement('button');
        button.textContent = item.caption;
        button.addEventListener('click', function () {
          call('POST', '/api/grid/menu', { functionName: item.functionName })
            .then(function (result) {
              setShape(result.shape, true);
              // Sheets shows one sidebar at a time: one the item showed replaces the one beside the grid.
              if (result.sidebar) {
                document.getElementById('sidebar-title').textContent = result.sidebar.title;
                document.getElementById('sidebar').src = '/sidebar?shown=' + result.sidebar.index;
              }
            })
            .catch(function (e) {
              toast(e.message);
            });
        });
        return button;
      }),
    );
  }

  /**
   * Posts an action that answers with the sheet's shape; `changed` when it may have changed cells. The page
   * owns the selection: an answer to a request sent before the person's latest move (a click, an arrow, the
   * move after Enter) carries the selection as it was then, and must not pull the active cell back there, or
   * the keys, pastes and Deletes that follow would go to the old cell.
   */
  function act(url, body, changed) {
    var asked = selections;
    return call('POST', url, body)
      .then(function (next) {
        if (asked !== selections && shape && next.sheet !== shape.sheet) return; // the person has since moved on to another sheet
        // On the sheet drawn, the selection is the page's: these routes only echo it, or an older one.
        if (shape && next.sheet === shape.sheet) {
          next.active = shape.active;
          next.selection = shape.selection;
        }
        setShape(next, changed);
      })
      .catch(function (e) {
        toast(e.message);
      });
  }

  /**
   * The server keeps a selection as a range only, and names its top-left cell as the active one (Sheets'
   * setActiveRange does the same), so a selection stretched from B3 up to A1 comes back active at A1, a hidden
   * cell. The page keeps its own active cell while the server's selection is the one the page drew, or the next
   * Shift+arrow would stretch from the wrong corner.
   */
  function keepActiveCell(next) {
    if (shape && next.sheet === shape.sheet && next.selection === shape.selection) next.active = shape.active;
  }

  // Writes (entries, pastes, Deletes) reach the server one after another, in the order the person made them,
  // each against the address captured when it was made: a later entry in the same cell wins, as it does in Sheets.
  var writes = Promise.resolve();
  var entries = null; // entries waiting for their turn, sent together: { list, done }
  function write(url, body) {
    entries = null; // an entry made after this write goes after it
    var done = writes.then(function () {
      return act(url, body, true);
    });
    writes = done;
    return done;
  }
  /**
   * An entry in a cell. Entries made while the writes before them are on their way wait together and go in one
   * request when their turn comes, in the order made (Workbench.enterEach): typed at full speed, each entry in a
   * request and a recalculation of its own took minutes for 200 formulas, as every recalculation reads them all.
   */
  function writeEntry(sheet, a1, input) {
    if (!entries) {
      var batch = { list: [] };
      batch.done = writes.then(function () {
        if (entries === batch) entries = null; // sent now: later entries wait for the next turn
        return act('/api/grid/entries', { entries: batch.list }, true);
      });
      writes = batch.done;
      entries = batch;
    }
    entries.list.push({ sheet: sheet, a1: a1, input: input });
    return entries.done;
  }

  function closeDropdown() {
    var list = document.getElementById('dropdown-list');
    if (list) list.remove();
  }

  /**
   * The rule's values under the cell. Opened from the keyboard (Alt+Down, as Sheets opens a dropdown chip) the focus
   * goes to the value the cell holds, the arrows move between values, Enter or Space enters one and Escape closes
   * the list; either way the focus comes back to the grid, so the next key goes where it went before.
   */
  function openDropdown(td, values, fromKeyboard) {
    closeDropdown();
    var a1 = td.dataset.a1;
    var list = document.createElement('div');
    list.id = 'dropdown-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Values for ' + a1);
    var options = values.map(function (value) {
      var option = document.createElement('button');
      option.type = 'button';
      option.tabIndex = -1;
      option.setAttribute('role', 'option');
      option.textContent = value;
      option.addEventListener('click', function () {
        var hadFocus = list.contains(document.activeElement);
        closeDropdown();
        writeEntry(shape.sheet, a1, value);
        if (hadFocus) grid.focus({ preventScroll: true });
      });
      list.appendChild(option);
      return option;
    });
    list.addEventListener('keydown', function (event) {
      var index = options.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        var next = options[Math.max(0, Math.min(options.length - 1, index + (event.key === 'ArrowDown' ? 1 : -1)))];
        if (next) next.focus();
      } else if (event.key === 'Escape' || event.key === 'Tab') {
        event.preventDefault();
        closeDropdown();
        grid.focus({ preventScroll: true });
      }
    });
    var rect = td.getBoundingClientRect();
    var outer = scroller.getBoundingClientRect();
    list.style.left = rect.left - outer.left + scroller.scrollLeft + 'px';
    list.style.top = rect.bottom - outer.top + scroller.scrollTop + 'px';
    scroller.appendChild(list);
    if (fromKeyboard && options.length) {
      var held = cellAt(position(a1).row, position(a1).column);
      var current = options.filter(function (option) {
        return held && option.textContent === held.d;
      })[0];
      (current || options[0]).focus();
    }
  }

  function rangeA1(a, b) {
    if (a.row === b.row && a.column === b.column) return columnName(a.column - 1) + a.row;
    return columnName(Math.min(a.column, b.column) - 1) + Math.min(a.row, b.row) + ':' + columnName(Math.max(a.column, b.column) - 1) + Math.max(a.row, b.row);
  }

  // Pressing the mouse on a cell selects it, as in Sheets (on mousedown, not click: a click needs the press and
  // the release on one element, and a cell redrawn between them, as the grid does after a sidebar call, would
  // lose it); with shift it extends the selection from the active cell; dragging selects the cells passed over,
  // drawn at once and sent when the button is released.
  var drag = null;
  var selections = 0; // bumped by every selection the person makes
  body.addEventListener('mousedown', function (event) {
    if (event.button !== 0 || event.target.matches('input, button.arrow')) return;
    var td = event.target.closest('td');
    if (!td?.dataset.a1) return;
    selections++;
    commitEdit(false);
    var a1 = td.dataset.a1;
    closeDropdown();
    if (event.shiftKey) {
      a1 = rangeA1(position(shape.active), position(a1));
      shape.selection = a1;
    } else {
      // Drawn at once, before the server answers: a key or a paste that follows goes to this cell.
      shape.active = a1;
      shape.selection = a1;
      drag = { from: position(a1), to: position(a1) };
      event.preventDefault(); // no text selection while dragging; so focus moves from the bar (or the sidebar) by hand
      grid.focus({ preventScroll: true });
    }
    draw();
    act('/api/grid/select', { sheet: shape.sheet, a1: a1 }, false);
  });
  body.addEventListener('mouseover', function (event) {
    if (!drag) return;
    var td = event.target.closest('td');
    if (!td?.dataset.a1) return;
    var to = position(td.dataset.a1);
    if (to.row === drag.to.row && to.column === drag.to.column) return;
    drag.to = to;
    selections++;
    shape.selection = rangeA1(drag.from, drag.to);
    draw();
  });
  document.addEventListener('mouseup', function () {
    if (!drag) return;
    var selection = rangeA1(drag.from, drag.to);
    drag = null;
    if (selection.indexOf(':') > 0) act('/api/grid/select', { sheet: shape.sheet, a1: selection }, false);
  });

  // Typing straight into a cell, as in Sheets: a key that types a character opens an editor over the active
  // cell with that character, Enter or F2 or a double click opens it with the cell's contents; in the editor
  // Enter enters and moves down, Tab enters and moves right, Escape cancels. Outside it the arrows move
  // (with shift they extend the selection), Enter or F2 edits, and Delete or Backspace clears. Tab outside the
  // editor is the page's: it leaves the grid for the next control, so a keyboard user is never held in it.
  var editing = null;
  function activeTd() {
    return body.querySelector('td[data-a1="' + shape.active + '"]');
  }
  function startEdit(text) {
    commitEdit(false);
    var td = activeTd();
    // The active cell scrolled out of view is not drawn: bring it in rather than drop the key.
    if (!td) {
      scrollToActive();
      draw();
      td = activeTd();
    }
    if (!td) return;
    var input = document.createElement('input');
    input.className = 'cell-editor';
    input.setAttribute('aria-label', 'Edit ' + shape.active);
    input.spellcheck = false;
    var rect = td.getBoundingClientRect();
    var outer = scroller.getBoundingClientRect();
    input.style.left = rect.left - outer.left + scroller.scrollLeft + 'px';
    input.style.top = rect.top - outer.top + scroller.scrollTop + 'px';
    input.style.minWidth = rect.width + 'px';
    input.style.height = rect.height + 'px';
    input.value = text;
    scroller.appendChild(input);
    editing = { a1: shape.active, sheet: shape.sheet, input: input };
    formula.value = text;
    input.addEventListener('input', function () {
      formula.value = input.value;
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        var at = position(editing.a1);
        commitEdit(
          true,
          event.key === 'Enter'
            ? { row: at.row + (event.shiftKey ? -1 : 1), column: at.column }
            : { row: at.row, column: at.column + (event.shiftKey ? -1 : 1) },
        );
      } else if (event.key === 'Escape') {
        event.preventDefault();
        cancelEdit();
      }
    });
    input.focus();
    input.setSelectionRange(text.length, text.length);
  }
  function cancelEdit() {
    if (!editing) return;
    var hadFocus = document.activeElement === editing.input;
    editing.input.remove();
    editing = null;
    // The focus goes back to the grid it came from, not to the page's top, so the next Tab leaves from here.
    if (hadFocus) grid.focus({ preventScroll: true });
    showActive.cell = undefined;
    showActive();
  }
  /**
   * Enters what the editor holds (when `enter`) in the cell it was opened on, then selects `next` at once: the
   * move does not wait for the entry, so the keys typed next go to the next cell however fast they follow.
   */
  function commitEdit(enter, next) {
    if (!editing) return Promise.resolve();
    var done = editing;
    editing = null;
    var hadFocus = document.activeElement === done.input;
    done.input.remove();
    if (hadFocus) grid.focus({ preventScroll: true });
    var entered = enter ? enterInput(done.sheet, done.a1, done.input.value) : Promise.resolve();
    if (next && shape.sheet === done.sheet) moveTo(next.row, next.column, false);
    return entered;
  }
  /** An entry, drawn in its cell until the server's value arrives (as Sheets shows what was typed at once). */
  function enterInput(sheet, a1, input) {
    var key = sheet + '!' + a1;
    var mark = {};
    pending.set(key, { input: input, mark: mark });
    scheduleDraw(); // or at once by the move to the next cell
    return writeEntry(sheet, a1, input).then(function () {
      if (pending.get(key) && pending.get(key).mark === mark) pending.delete(key);
      showActive.cell = undefined;
      scheduleDraw();
    });
  }
  /** The first column from `column` on, in the direction `step`, that is not hidden. */
  function shownColumn(column, step) {
    while (hiddenColumns.has(column) && column + step >= 1 && column + step <= shape.maxColumns) column += step;
    return column;
  }
  function hiddenAt(row, column) {
    return hiddenColumns.has(column) || offsets[row] === offsets[row - 1];
  }
  function moveTo(row, column, extend) {
    var from = position(shape.active);
    row = Math.max(1, Math.min(shape.maxRows, row));
    column = Math.max(1, Math.min(shape.maxColumns, column));
    if (!extend) {
      // Sheets steps over hidden rows and columns: a move lands on a cell the person can see, or stays.
      var dr = Math.sign(row - from.row),
        dc = Math.sign(column - from.column);
      while (hiddenAt(row, column) && (dr || dc) && row + dr >= 1 && row + dr <= shape.maxRows && column + dc >= 1 && column + dc <= shape.maxColumns) {
        row += dr;
        column += dc;
      }
      if (hiddenAt(row, column)) return Promise.resolve();
    }
    var a1 = columnName(column - 1) + row;
    if (extend) {
      var box = selectionBox(shape.selection);
      var anchor = position(shape.active);
      // The far corner moves; the active cell stays where the selection started.
      var far = { row: anchor.row === box.top ? box.bottom : box.top, column: anchor.column === box.left ? box.right : box.left };
      far = {
        row: Math.max(1, Math.min(shape.maxRows, far.row + (row - anchor.row))),
        column: Math.max(1, Math.min(shape.maxColumns, far.column + (column - anchor.column))),
      };
      a1 = rangeA1(anchor, far);
    }
    // Drawn at once, before the server answers: the next key moves from here, as in Sheets, however fast it follows.
    selections++;
    if (!extend) shape.active = columnName(column - 1) + row;
    shape.selection = a1;
    scrollToActive();
    draw();
    return act('/api/grid/select', { sheet: shape.sheet, a1: a1 }, false);
  }
  function scrollToActive() {
    var at = position(shape.active);
    var top = offsets[at.row - 1],
      bottom = offsets[at.row];
    var headHeight = head.getBoundingClientRect().height;
    if (top < scroller.scrollTop) scroller.scrollTop = top;
    else if (bottom > scroller.scrollTop + scroller.clientHeight - headHeight - 40) scroller.scrollTop = bottom - scroller.clientHeight + headHeight + 40;
    var left = 46,
      c;
    for (c = 1; c < at.column; c++) left += widthOf(c);
    var right = left + widthOf(at.column);
    if (left - 46 < scroller.scrollLeft) scroller.scrollLeft = left - 46;
    else if (right > scroller.scrollLeft + scroller.clientWidth) scroller.scrollLeft = right - scroller.clientWidth;
  }
  body.addEventListener('dblclick', function (event) {
    var td = event.target.closest('td');
    if (!td?.dataset.a1 || td.dataset.a1 !== shape.active) return;
    var cell = cellAt(position(shape.active).row, position(shape.active).column);
    startEdit(cell ? cell.f || cell.d : '');
  });
  document.addEventListener('keydown', function (event) {
    if (!shape || editing) return;
    var target = event.target;
    if (target !== document.body && target !== scroller && !target.closest?.('#grid')) return;
    var at = position(shape.active);
    var held = cellAt(at.row, at.column);
    // Keys of the grid pattern (ARIA APG) and of Sheets' checkbox and dropdown cells, before the modifiers are let go by.
    if (event.altKey && event.key === 'ArrowDown' && held?.control?.kind === 'list') {
      event.preventDefault();
      var td = activeTd();
      if (td) openDropdown(td, held.control.values, true);
      return;
    }
    // Home and End go to the row's first and last shown cell, Ctrl+Home to the sheet's first (hidden ones stepped over).
    if ((event.ctrlKey || event.metaKey) && event.key === 'Home') {
      event.preventDefault();
      var top = 1;
      while (top < shape.maxRows && offsets[top] === offsets[top - 1]) top++;
      moveTo(top, shownColumn(1, 1), false);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      moveTo(at.row, event.key === 'Home' ? shownColumn(1, 1) : shownColumn(shape.maxColumns, -1), event.shiftKey);
      return;
    }
    if (event.key === ' ' && held?.control?.kind === 'checkbox') {
      event.preventDefault();
      writeEntry(shape.sheet, shape.active, held.control.checked ? held.control.uncheckedValue : held.control.checkedValue);
      return;
    }
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      moveTo(at.row + moves[event.key][0], at.column + moves[event.key][1], event.shiftKey);
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      var cell = cellAt(at.row, at.column);
      startEdit(cell ? cell.f || cell.d : '');
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      // The selection as drawn now; the server clears only its cells in rows and columns shown.
      write('/api/grid/clear', { sheet: shape.sheet, a1: shape.selection }).then(function () {
        showActive.cell = undefined;
        showActive();
      });
    } else if (event.key.length === 1) {
      event.preventDefault();
      startEdit(event.key);
    }
  });

  // A checkbox toggles its value and a dropdown's arrow lists the rule's values, as in Sheets.
  body.addEventListener('click', function (event) {
    var td = event.target.closest('td');
    if (!td?.dataset.a1) return;
    var a1 = td.dataset.a1;
    var at = position(a1);
    var cell = cellAt(at.row, at.column);
    if (event.target.matches('input[type="checkbox"]') && cell?.control) {
      event.preventDefault();
      var next = cell.control.checked ? cell.control.uncheckedValue : cell.control.checkedValue;
      writeEntry(shape.sheet, a1, next);
      return;
    }
    if (event.target.matches('button.arrow') && cell?.control) {
      openDropdown(td, cell.control.values);
      act('/api/grid/select', { sheet: shape.sheet, a1: a1 }, false);
    }
  });

  // Focus coming back to the grid (Shift+Tab from the Add buttons below it, which scrolled the sheet to its end)
  // shows the active cell, as the grid names it to a screen reader: the keys go there, so the person sees it.
  // Not judged by whether its cell is in the page: the scroll that focusing the button made may not have been
  // drawn yet (its draw waits for a frame), so a cell still in the page can be about to leave it.
  // Judged by where the sheet is scrolled to, so a click (its cell in view) never scrolls.
  grid.addEventListener('focus', function () {
    if (!shape) return;
    var row = position(shape.active).row;
    var inView = offsets[row] > scroller.scrollTop && offsets[row - 1] < scroller.scrollTop + scroller.clientHeight;
    if (!inView) scrollToActive();
    if (!inView || !document.getElementById('grid-cell-' + shape.active)) draw();
  });
  scroller.addEventListener('scroll', scheduleDraw);
  window.addEventListener('resize', scheduleDraw);

  document.getElementById('add-rows').addEventListener('click', function () {
    act('/api/grid/grow', { sheet: shape.sheet, rows: Number(document.getElementById('add-rows-count').value) }, true);
  });
  document.getElementById('add-columns').addEventListener('click', function () {
    act('/api/grid/grow', { sheet: shape.sheet, columns: Number(document.getElementById('add-columns-count').value) }, true);
  });

  // Pasting tab-separated text (as copied from a spreadsheet) enters it from the active cell.
  document.addEventListener('paste', function (event) {
    if (document.activeElement === formula) return;
    var text = event.clipboardData?.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    // Said here, before sending: a paste the server would refuse for its size must not vanish.
    // At the active cell as drawn when the paste was made, whatever answers are still on their way.
    var request = { sheet: shape.sheet, a1: shape.active, text: text };
    var bytes = new Blob([JSON.stringify(request)]).size;
    if (bytes > shape.pasteLimitBytes) {
      var mb = function (n) {
        return (n / 1048576).toFixed(1) + ' MB';
      };
      toast(
        'Nothing was pasted: this paste is ' +
          mb(bytes) +
          ' and the workbench takes up to ' +
          mb(shape.pasteLimitBytes) +
          ' at once. Paste it in parts, each at the cell below where the last part ended.',
      );
      return;
    }
    write('/api/grid/paste', request);
  });

  formula.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter') return;
    if (editing) {
      editing.input.value = formula.value;
      commitEdit(true);
      formula.blur();
      return;
    }
    enterInput(shape.sheet, shape.active, formula.value);
    formula.blur();
  });

  window.addEventListener('message', function (event) {
    // After a server call, show the active sheet: the script may have activated another (a new audit, say).
    if (event.data && event.data.type === 'workbench:changed') {
      var asked = selections;
      call('GET', '/api/grid/sheet').then(function (next) {
        // Another sheet the script activated is shown; on the same sheet a move made since the request stands.
        if (asked !== selections && shape && next.sheet === shape.sheet) {
          next.active = shape.active;
          next.selection = shape.selection;
        }
        keepActiveCell(next);
        setShape(next, true);
      });
    }
  });

  // For tests and the benchmark: the grid's state, and a way to wait until what is in view is drawn.
  window.workbenchGrid = {
    shape: function () {
      return shape;
    },
    settled: function () {
      return loading.size === 0 && retrying.size === 0 && !scheduled;
    },
    rowsBuilt: function () {
      return rowsBuilt;
    },
    // Resolves once every entry, paste and Delete made so far has been answered, and drawn as answered.
    written: function () {
      return writes.then(function () {
        if (scheduled) draw();
      });
    },
    reload: function () {
      return call('GET', '/api/grid/sheet').then(function (next) {
        setShape(next, true);
      });
    },
  };

  call('GET', '/api/grid/sheet').then(function (next) {
    setShape(next, true);
  });
})();
