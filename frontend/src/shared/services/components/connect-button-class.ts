/** The red Conectar / Reconectar button of the dashboard (spec section 2) and the admin table. */
export const CONNECT_BUTTON_CLASS = 'bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:outline-red-600';
