import { BookingsApp } from '../bookings/BookingsApp';
import { mount } from '../lib/mount';

mount(BookingsApp);
