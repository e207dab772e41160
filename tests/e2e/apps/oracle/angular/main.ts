// An order admin built as Angular users build one: standalone components, reactive forms, Angular
// Material and the CDK (toolbar, sidenav, tabs, form fields with input, select, autocomplete and
// datepicker, checkbox, radio group, slide toggle, slider, buttons, a sortable table with a
// paginator, expansion panels, a menu, a dialog). Compiled just in time (no Angular CLI): bundled by
// build.cjs with esbuild. The form's model is window.orderForm, the table's window.orderTable.
import '@angular/compiler';

import { AfterViewInit, Component, inject, provideZonelessChangeDetection, ViewChild } from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule } from '@angular/forms';
import { bootstrapApplication, DomSanitizer } from '@angular/platform-browser';
import { provideNativeDateAdapter } from '@angular/material/core';
import { MatAutocompleteModule } from '@angular/material/autocomplete';
import { MatButtonModule } from '@angular/material/button';
import { MatCheckboxModule } from '@angular/material/checkbox';
import { MatDatepickerModule } from '@angular/material/datepicker';
import { MAT_DIALOG_DATA, MatDialog, MatDialogModule } from '@angular/material/dialog';
import { MatExpansionModule } from '@angular/material/expansion';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule, MatIconRegistry } from '@angular/material/icon';
import { MatInputModule } from '@angular/material/input';
import { MatListModule } from '@angular/material/list';
import { MatMenuModule } from '@angular/material/menu';
import { MatPaginator, MatPaginatorModule } from '@angular/material/paginator';
import { MatRadioModule } from '@angular/material/radio';
import { MatSelectModule } from '@angular/material/select';
import { MatSidenavModule } from '@angular/material/sidenav';
import { MatSlideToggleModule } from '@angular/material/slide-toggle';
import { MatSliderModule } from '@angular/material/slider';
import { MatSort, MatSortModule } from '@angular/material/sort';
import { MatTableDataSource, MatTableModule } from '@angular/material/table';
import { MatTabsModule } from '@angular/material/tabs';
import { MatToolbarModule } from '@angular/material/toolbar';

declare global {
  interface Window {
    __ready: boolean;
    orderForm: FormGroup;
    orderTable: MatTableDataSource<Order>;
  }
}

// Material Symbols paths (Apache 2.0), registered as literals: the page loads no icon font.
const ICONS: Record<string, string> = {
  menu: 'M3 18v-2h18v2H3Zm0-5v-2h18v2H3Zm0-5V6h18v2H3Z',
  more_vert: 'M12 20q-.825 0-1.412-.587T10 18q0-.825.588-1.412T12 16q.825 0 1.413.588T14 18q0 .825-.587 1.413T12 20Zm0-6q-.825 0-1.412-.587T10 12q0-.825.588-1.412T12 10q.825 0 1.413.588T14 12q0 .825-.587 1.413T12 14Zm0-6q-.825 0-1.412-.587T10 6q0-.825.588-1.412T12 4q.825 0 1.413.588T14 6q0 .825-.587 1.413T12 8Z',
  delete: 'M7 21q-.825 0-1.412-.587T5 19V6H4V4h5V3h6v1h5v2h-1v13q0 .825-.587 1.413T17 21H7Zm2-4h2V8H9v9Zm4 0h2V8h-2v9Z',
  account: 'M12 12q-1.65 0-2.825-1.175T8 8q0-1.65 1.175-2.825T12 4q1.65 0 2.825 1.175T16 8q0 1.65-1.175 2.825T12 12Zm-8 8v-2.8q0-.85.438-1.562T5.6 14.55q1.55-.775 3.15-1.162T12 13q1.65 0 3.25.388t3.15 1.162q.725.375 1.163 1.088T20 17.2V20H4Z',
};

interface Order {
  id: number;
  customer: string;
  total: number;
  status: string;
}

const CUSTOMERS = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Frances Allen'];
const STATUSES = ['Paid', 'Shipped', 'Pending', 'Refunded'];
const ORDERS: Order[] = Array.from({ length: 23 }, (_, i) => ({
  id: 1001 + i,
  customer: CUSTOMERS[(i * 3) % CUSTOMERS.length],
  total: 20 + ((i * 37) % 180),
  status: STATUSES[i % STATUSES.length],
}));

@Component({
  selector: 'app-confirm',
  imports: [MatDialogModule, MatButtonModule, MatFormFieldModule, MatInputModule],
  template: `
    <h2 mat-dialog-title>Confirm order</h2>
    <mat-dialog-content>
      <p>Place the order for {{ data.customer }}?</p>
      <mat-form-field><mat-label>Coupon code</mat-label><input matInput></mat-form-field>
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button mat-dialog-close>Cancel</button>
      <button mat-flat-button [mat-dialog-close]="true">Confirm</button>
    </mat-dialog-actions>`,
})
class ConfirmDialog {
  data = inject<{ customer: string }>(MAT_DIALOG_DATA);
}

@Component({
  selector: 'app-root',
  imports: [
    ReactiveFormsModule, MatToolbarModule, MatButtonModule, MatIconModule, MatMenuModule, MatSidenavModule,
    MatListModule, MatTabsModule, MatFormFieldModule, MatInputModule, MatSelectModule, MatAutocompleteModule,
    MatDatepickerModule, MatCheckboxModule, MatRadioModule, MatSlideToggleModule, MatSliderModule,
    MatTableModule, MatSortModule, MatPaginatorModule, MatExpansionModule, MatDialogModule,
  ],
  template: `
    <mat-toolbar color="primary">
      <button mat-icon-button aria-label="Toggle navigation" (click)="nav.toggle()"><mat-icon svgIcon="menu"></mat-icon></button>
      <span>Shop admin</span>
      <span class="fill"></span>
      <button mat-button [matMenuTriggerFor]="account"><mat-icon svgIcon="account"></mat-icon> Account</button>
    </mat-toolbar>
    <mat-menu #account="matMenu">
      <button mat-menu-item>Profile</button>
      <button mat-menu-item>Settings</button>
      <button mat-menu-item [matMenuTriggerFor]="language">Language</button>
      <button mat-menu-item disabled>Billing</button>
      <button mat-menu-item>Sign out</button>
    </mat-menu>
    <mat-menu #language="matMenu">
      <button mat-menu-item>English</button>
      <button mat-menu-item>Français</button>
    </mat-menu>
    <mat-sidenav-container>
      <mat-sidenav #nav mode="side" opened>
        <mat-nav-list>
          <a mat-list-item href="#dashboard">Dashboard</a>
          <a mat-list-item href="#orders" activated>Orders</a>
          <a mat-list-item href="#customers">Customers</a>
          <a mat-list-item href="#reports">Reports</a>
        </mat-nav-list>
      </mat-sidenav>
      <mat-sidenav-content>
        <div class="content">
          <h1>New order</h1>
          <mat-tab-group [formGroup]="form">
            <mat-tab label="Customer">
              <div class="row">
                <mat-form-field><mat-label>Customer name</mat-label><input matInput formControlName="name"></mat-form-field>
                <mat-form-field><mat-label>Email</mat-label><input matInput type="email" formControlName="email"></mat-form-field>
                <mat-form-field>
                  <mat-label>Country</mat-label>
                  <mat-select formControlName="country">
                    @for (c of countries; track c.code) { <mat-option [value]="c.code">{{ c.name }}</mat-option> }
                  </mat-select>
                </mat-form-field>
                <mat-form-field>
                  <mat-label>City</mat-label>
                  <input matInput formControlName="city" [matAutocomplete]="cities">
                  <mat-autocomplete #cities="matAutocomplete">
                    @for (c of cityOptions; track c) { <mat-option [value]="c">{{ c }}</mat-option> }
                  </mat-autocomplete>
                </mat-form-field>
                <mat-form-field>
                  <mat-label>Delivery date</mat-label>
                  <input matInput [matDatepicker]="picker" formControlName="delivery">
                  <mat-datepicker-toggle matIconSuffix [for]="picker"></mat-datepicker-toggle>
                  <mat-datepicker #picker></mat-datepicker>
                </mat-form-field>
              </div>
              <div class="row">
                <mat-checkbox formControlName="gift">Gift wrap</mat-checkbox>
                <mat-checkbox formControlName="invoice">Send invoice</mat-checkbox>
                <mat-checkbox disabled>Priority handling</mat-checkbox>
                <mat-slide-toggle formControlName="notify">Notify customer</mat-slide-toggle>
              </div>
              <div class="row">
                <label id="payment-label">Payment</label>
                <mat-radio-group aria-labelledby="payment-label" formControlName="payment">
                  <mat-radio-button value="card">Card</mat-radio-button>
                  <mat-radio-button value="transfer">Bank transfer</mat-radio-button>
                  <mat-radio-button value="cash">Cash on delivery</mat-radio-button>
                </mat-radio-group>
              </div>
              <div class="row">
                <label id="discount-label">Discount (%)</label>
                <mat-slider min="0" max="50" step="5" discrete>
                  <input matSliderThumb formControlName="discount" aria-labelledby="discount-label">
                </mat-slider>
              </div>
            </mat-tab>
            <mat-tab label="Notes">
              <mat-form-field style="width: 100%"><mat-label>Notes for the courier</mat-label><textarea matInput formControlName="notes" rows="3"></textarea></mat-form-field>
            </mat-tab>
            <mat-tab label="History" disabled></mat-tab>
          </mat-tab-group>
          <div class="row">
            <button mat-flat-button (click)="placeOrder()">Place order</button>
            <button mat-stroked-button type="button" (click)="form.reset()">Reset</button>
            <button mat-button disabled>Archive</button>
          </div>

          <h2>Recent orders</h2>
          <table mat-table [dataSource]="orders" matSort aria-label="Recent orders">
            <ng-container matColumnDef="id">
              <th mat-header-cell *matHeaderCellDef mat-sort-header>Order</th>
              <td mat-cell *matCellDef="let o">{{ o.id }}</td>
            </ng-container>
            <ng-container matColumnDef="customer">
              <th mat-header-cell *matHeaderCellDef mat-sort-header>Customer</th>
              <td mat-cell *matCellDef="let o">{{ o.customer }}</td>
            </ng-container>
            <ng-container matColumnDef="total">
              <th mat-header-cell *matHeaderCellDef mat-sort-header>Total</th>
              <td mat-cell *matCellDef="let o">{{ o.total }} €</td>
            </ng-container>
            <ng-container matColumnDef="status">
              <th mat-header-cell *matHeaderCellDef>Status</th>
              <td mat-cell *matCellDef="let o">{{ o.status }}</td>
            </ng-container>
            <ng-container matColumnDef="actions">
              <th mat-header-cell *matHeaderCellDef><span class="cdk-visually-hidden">Actions</span></th>
              <td mat-cell *matCellDef="let o">
                <button mat-icon-button [attr.aria-label]="'Delete order ' + o.id" (click)="remove(o)"><mat-icon svgIcon="delete"></mat-icon></button>
              </td>
            </ng-container>
            <tr mat-header-row *matHeaderRowDef="columns"></tr>
            <tr mat-row *matRowDef="let row; columns: columns"></tr>
          </table>
          <mat-paginator [pageSizeOptions]="[5, 10, 20]" [pageSize]="5" showFirstLastButtons aria-label="Orders pages"></mat-paginator>

          <mat-accordion>
            <mat-expansion-panel>
              <mat-expansion-panel-header><mat-panel-title>Delivery options</mat-panel-title></mat-expansion-panel-header>
              <p>Parcels leave the warehouse at 4 pm.</p>
              <mat-checkbox>Leave at the door</mat-checkbox>
            </mat-expansion-panel>
            <mat-expansion-panel expanded>
              <mat-expansion-panel-header><mat-panel-title>Returns</mat-panel-title></mat-expansion-panel-header>
              <p>Returns are accepted within 30 days.</p>
              <button mat-stroked-button>Start a return</button>
            </mat-expansion-panel>
          </mat-accordion>
        </div>
      </mat-sidenav-content>
    </mat-sidenav-container>`,
})
class App implements AfterViewInit {
  private dialog = inject(MatDialog);
  countries = [
    { code: 'fr', name: 'France' },
    { code: 'de', name: 'Germany' },
    { code: 'it', name: 'Italy' },
    { code: 'es', name: 'Spain' },
  ];
  cityOptions = ['Lyon', 'Paris', 'Nice', 'Berlin', 'Milan'];
  columns = ['id', 'customer', 'total', 'status', 'actions'];
  orders = new MatTableDataSource<Order>(ORDERS.slice());
  form = new FormGroup({
    name: new FormControl('Ada Lovelace'),
    email: new FormControl(''),
    country: new FormControl('fr'),
    city: new FormControl(''),
    delivery: new FormControl<Date | null>(null),
    gift: new FormControl(false),
    invoice: new FormControl(true),
    notify: new FormControl(true),
    payment: new FormControl('card'),
    discount: new FormControl(10),
    notes: new FormControl(''),
  });
  @ViewChild(MatSort) sort!: MatSort;
  @ViewChild(MatPaginator) paginator!: MatPaginator;

  constructor() {
    const icons = inject(MatIconRegistry);
    const sanitizer = inject(DomSanitizer);
    for (const [name, d] of Object.entries(ICONS)) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="${d}"/></svg>`;
      icons.addSvgIconLiteral(name, sanitizer.bypassSecurityTrustHtml(svg));
    }
    window.orderForm = this.form;
    window.orderTable = this.orders;
  }

  ngAfterViewInit(): void {
    this.orders.sort = this.sort;
    this.orders.paginator = this.paginator;
  }

  placeOrder(): void {
    this.dialog.open(ConfirmDialog, { data: { customer: this.form.value.name } });
  }

  remove(order: Order): void {
    this.orders.data = this.orders.data.filter((o) => o !== order);
  }
}

bootstrapApplication(App, {
  providers: [provideZonelessChangeDetection(), provideNativeDateAdapter()],
}).then(
  () => setTimeout(() => { window.__ready = true; }, 300),
  (err) => { console.error(err); (window as any).__error = String(err); },
);
