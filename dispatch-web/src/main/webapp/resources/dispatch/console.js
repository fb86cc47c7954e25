/*
 * Live refresh for the console: a picker (off / 2 s / 5 s / 10 s) whose choice is kept in
 * sessionStorage. A refresh is a partial update of the page's live regions, so the scroll position
 * stays; the next one is scheduled only when the previous one has completed, so a slow refresh
 * never stacks requests.
 */
var DispatchConsole = (function () {
    var KEY = 'dispatch.refresh-seconds';
    var timer = null;
    var busy = false;

    function seconds() {
        var v = parseInt(window.sessionStorage.getItem(KEY), 10);
        return isNaN(v) ? 5 : v;
    }

    function schedule() {
        window.clearTimeout(timer);
        var s = seconds();
        if (s > 0) {
            timer = window.setTimeout(refresh, s * 1000);
        }
    }

    function refresh() {
        if (busy || document.hidden || typeof window.refreshConsole !== 'function') {
            schedule();
            return;
        }
        busy = true;
        window.refreshConsole();
    }

    return {
        init: function () {
            var picker = document.getElementById('refresh-picker');
            if (picker) {
                picker.value = String(seconds());
                picker.addEventListener('change', function () {
                    window.sessionStorage.setItem(KEY, picker.value);
                    schedule();
                });
            }
            schedule();
        },
        done: function () {
            busy = false;
            schedule();
        }
    };
})();
document.addEventListener('DOMContentLoaded', DispatchConsole.init);
