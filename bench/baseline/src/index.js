// Async boundary, as in every package of the product.
import('./bootstrap');
