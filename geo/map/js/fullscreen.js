// Runs in a control's onAdd (div, map in scope): the map full screen and back.
div.title = 'Full screen';
div.onclick = function() {
    var el = map.getContainer();
    if (document.fullscreenElement) { document.exitFullscreen(); }
    else if (el.requestFullscreen) { el.requestFullscreen(); }
};
