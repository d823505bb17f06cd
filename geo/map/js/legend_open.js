// Runs in a control's onAdd (div, map in scope): open the legend on a roomy map only.
var details = div.querySelector('details');
var size = map.getSize();
details.open = size.x >= 900 && size.y >= 560;
