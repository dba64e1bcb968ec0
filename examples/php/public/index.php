<?php
// The product page: quantities in, a cart out. Each cart gets its own hash and its own page (cart.php).
declare(strict_types=1);
require __DIR__ . '/../shop.php';

if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $cart = create_cart(is_array($_POST['quantity'] ?? null) ? $_POST['quantity'] : []);
    if ($cart) {
        header('Location: /cart.php?hash=' . rawurlencode($cart['hash']), true, 303);
        exit;
    }
    $error = 'Elige al menos un producto.';
}

page_start('Productos');
echo '<h1>', e(STORE_NAME), '</h1>';
if (isset($error)) echo '<p role="alert">', e($error), '</p>';
echo '<form method="post" action="/index.php">';
foreach (PRODUCTS as $id => $product) {
    echo '<p><label>', e($product['name']), ' (', e(pesos($product['price'])), ') ',
        '<input type="number" name="quantity[', e($id), ']" min="0" max="20" value="0"></label></p>';
}
echo '<button type="submit">Ir a pagar</button></form>';
page_end();
