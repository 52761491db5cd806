print("stampcam")
