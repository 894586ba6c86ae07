import { mount } from '../lib/mount';
import { VouchersApp } from '../vouchers/VouchersApp';

mount(VouchersApp);
