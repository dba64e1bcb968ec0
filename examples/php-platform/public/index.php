<?php
// The product page: quantities in, an order out. The order becomes a payment link on its own page (cart.php).
declare(strict_types=1);
require __DIR__ . '/../shop.php';

if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $order = create_order(is_array($_POST['quantity'] ?? null) ? $_POST['quantity'] : []);
    if ($order) {
        // The link is made on the cart page, so a slow or failed call to serve is retried by a reload there.
        header('Location: ' . here('/cart.php?order=' . rawurlencode($order['reference'])), true, 303);
        exit;
    }
    $error = t('pick_one');
}

page_start(t('products'));
echo '<h1>', e(store_name()), '</h1>';
if (isset($error)) echo '<p role="alert">', e($error), '</p>';
echo '<form method="post" action="', e(here('/index.php')), '">';
foreach (PRODUCTS as $id => $product) {
    echo '<p><label>', e($product[lang()]), ' (', e(pesos($product['price'])), ') ',
        '<input type="number" name="quantity[', e($id), ']" min="0" max="20" value="0"></label></p>';
}
echo '<button type="submit">', e(t('go_pay')), '</button></form>';
page_end('/');
